// The bench's bare forwarder (wrangler.toml here says why it exists). /v2/<rest> goes to
// <API_BASE_URL>/<rest>, the URL the gateway builds (src/upstream/client.ts); the caller's
// headers (the sandbox token, the subscription key) go as sent. Anything else goes to the sandbox's
// root, so that run.mjs can wait on /_sandbox/keys through the binding, not just on this Worker.
export default {
  fetch(request, env) {
    const url = new URL(request.url);
    const target = url.pathname.startsWith("/v2/")
      ? `${env.API_BASE_URL}${url.pathname.slice(3)}${url.search}`
      : new URL(`${url.pathname}${url.search}`, env.API_BASE_URL).href;
    return env.SANDBOX.fetch(new Request(target, request));
  },
};
