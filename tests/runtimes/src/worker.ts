// The smoke app as a Cloudflare Worker module (run by workerd): the app is built on the first request.
import { createApp } from './app.js';

let app: ReturnType<typeof createApp> | undefined;
export default {
  async fetch(request: Request): Promise<Response> {
    app ??= createApp();
    return (await app).fetch(request);
  },
};
