import { getAddressFromPrivateKey, randomPrivateKey } from '@stacks/transactions'
import { type ClientOptions, createClient } from '../../src/client.ts'

export const BASE_URL = 'http://tollbooth.test'
export const STACKS_API = 'http://stacks.test'
export const PRIVATE_KEY = randomPrivateKey()
export const PAY_TO = getAddressFromPrivateKey(randomPrivateKey(), 'testnet')

/** A `fetch` answering every request with `handle` (the service and the Stacks API in one). */
export function stubFetch(handle: (request: Request) => Response | Promise<Response>) {
  const requests: Request[] = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    requests.push(request.clone())
    return handle(request)
  }
  return { fetch, requests }
}

/**
 * A devnet client of the stand-in service, paying from PRIVATE_KEY through `fetch`
 * (a fee of 180 µSTX, a per-call cap of 0.01 STX), with `options`.
 */
export function stubClient(
  fetch: typeof globalThis.fetch,
  options: Pick<ClientOptions, 'budgetMicrostx'> & Partial<ClientOptions>
) {
  return createClient({
    baseUrl: BASE_URL,
    network: 'devnet',
    privateKey: PRIVATE_KEY,
    stacksApiUrl: STACKS_API,
    feeMicrostx: 180,
    maxPerCallMicrostx: 10_000,
    fetch,
    ...options,
  })
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

/** A devnet 402 asking `amount` µSTX for PAY_TO, with `extensions`. */
export function quote(amount = '5000', extensions?: Record<string, unknown>) {
  return json(402, {
    x402Version: 2,
    accepts: [
      { scheme: 'exact', network: 'stacks:2147483648', amount, asset: 'STX', payTo: PAY_TO },
    ],
    ...(extensions ? { extensions } : {}),
  })
}

/** The Stacks API's nonces of an account whose next nonce is `next`. */
export function nonces(next: number) {
  return json(200, {
    possible_next_nonce: next,
    last_executed_tx_nonce: next > 0 ? next - 1 : null,
    detected_missing_nonces: [],
  })
}
