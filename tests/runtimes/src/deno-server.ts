// Serves the smoke app with Deno.serve on a free port, and prints the port.
import { createApp } from './app.js';

declare const Deno: { serve(o: { port: number; hostname: string; onListen(a: { port: number }): void }, handler: (r: Request) => Promise<Response>): unknown };
const app = await createApp();
Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`listening ${port}`) }, app.fetch);
