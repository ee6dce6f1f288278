// Serves the smoke app with Bun.serve on a free port, and prints the port.
import { createApp } from './app.js';

declare const Bun: { serve(o: { port: number; hostname: string; fetch: (r: Request) => Promise<Response> }): { port: number } };
const app = await createApp();
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch });
console.log(`listening ${server.port}`);
