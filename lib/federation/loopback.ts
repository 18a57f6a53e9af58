/** http is accepted for loopback upstreams only (a provider on the same machine, the tests): anywhere else a connection's URLs are https. */
const loopback = new Set(['localhost', '127.0.0.1', '[::1]']);

export const isLoopbackHttp = (url: string) => {
  const parsed = URL.parse(url);
  return parsed?.protocol === 'http:' && (loopback.has(parsed.hostname) || /^127\.\d+\.\d+\.\d+$/.test(parsed.hostname));
};
