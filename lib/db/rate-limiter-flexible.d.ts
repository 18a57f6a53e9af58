// rate-limiter-flexible's base of every store is declared in its types but not exported at
// runtime; lib/db/throttle-store.ts imports its file and gives it the declared class's type.
declare module 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js' {
  const RateLimiterStoreAbstract: unknown;
  export default RateLimiterStoreAbstract;
}
