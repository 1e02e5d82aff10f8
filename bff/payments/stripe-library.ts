import type Stripe from 'stripe';

let loading: Promise<typeof Stripe> | undefined;

/**
 * The `stripe` library, loaded at its first use (a webhook's signature check, the checkout
 * stand-in) rather than at start: importing it costs ≈ 100 ms that the first page does not need
 * (start-up target, decision 080). Always the real library, never a stand-in.
 */
export function stripeLibrary(): Promise<typeof Stripe> {
  loading ??= import('stripe').then((module) => module.default);
  return loading;
}

/**
 * A Stripe API client for `secretKey`, made at its first call (the library is loaded then) and
 * kept: two network retries; `options.fetch` replaces the HTTP client (the tests' stand-in).
 */
export function lazyStripeClient(secretKey: string, options: { fetch?: typeof fetch } = {}): () => Promise<Stripe> {
  let client: Promise<Stripe> | undefined;
  return () => {
    client ??= stripeLibrary().then(
      (StripeCtor) =>
        new StripeCtor(secretKey, {
          maxNetworkRetries: 2,
          ...(options.fetch ? { httpClient: StripeCtor.createFetchHttpClient(options.fetch) } : {}),
        }),
    );
    return client;
  };
}
