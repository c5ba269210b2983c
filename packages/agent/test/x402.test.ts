import assert from 'node:assert/strict'
import { test } from 'node:test'
import { feedUrl } from '../src/client.ts'
import { MalformedPaymentRequiredError, NetworkMismatchError } from '../src/errors.ts'
import { chooseRequirement, readPaymentRequired } from '../src/x402.ts'

const PAY_TO = 'ST1T1K4XQGA7QNPW9KBM9Y5N5MTBJ0QCVDX5M6RZV'
const offer = {
  scheme: 'exact',
  network: 'stacks:2147483648',
  amount: '5000',
  asset: 'STX',
  payTo: PAY_TO,
}

test('picks the exact STX requirement of the client network', () => {
  const required = readPaymentRequired(
    JSON.stringify({ x402Version: 2, accepts: [{ ...offer, network: 'stacks:1' }, offer] }),
    null
  )
  assert.deepEqual(chooseRequirement(required, 'stacks:2147483648'), offer)
})

test('reads the payment-required header when the body is not JSON', () => {
  const header = Buffer.from(JSON.stringify({ x402Version: 2, accepts: [offer] })).toString(
    'base64'
  )
  assert.equal(readPaymentRequired('', header).accepts.length, 1)
})

test('another network is a mismatch; anything unpayable is malformed', () => {
  const of = (accepts: unknown[]) =>
    readPaymentRequired(JSON.stringify({ x402Version: 2, accepts }), null)
  assert.throws(() => chooseRequirement(of([offer]), 'stacks:1'), NetworkMismatchError)
  for (const bad of [
    { ...offer, amount: '0' },
    { ...offer, amount: '5000.0' },
    { ...offer, amount: '99999999999999999999' },
    { ...offer, scheme: 'upto' },
    { ...offer, payTo: 42 },
  ]) {
    assert.throws(
      () => chooseRequirement(of([bad]), 'stacks:2147483648'),
      MalformedPaymentRequiredError
    )
  }
  assert.throws(
    () => readPaymentRequired('{"x402Version":2,"accepts":[]}', null),
    MalformedPaymentRequiredError
  )
  assert.throws(() => readPaymentRequired('<html>', null), MalformedPaymentRequiredError)
})

test('a feed is a built-in id, a handle/slug or an absolute URL', () => {
  const base = 'https://tollbooth.example'
  assert.equal(feedUrl(base, 'whale-alerts', {}), `${base}/feeds/whale-alerts`)
  assert.equal(
    feedUrl(base, 'acme-data/eth-price', { symbol: 'ETH' }),
    `${base}/feeds/p/acme-data/eth-price?symbol=ETH`
  )
  assert.equal(
    feedUrl(base, 'https://other.example/feeds/x?a=1', { b: 2 }),
    'https://other.example/feeds/x?a=1&b=2'
  )
})
