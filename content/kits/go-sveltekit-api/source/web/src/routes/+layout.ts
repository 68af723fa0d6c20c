// The dashboard is a single-page app embedded in the Go binary: nothing renders on a server.
export const ssr = false;
export const prerender = false;
