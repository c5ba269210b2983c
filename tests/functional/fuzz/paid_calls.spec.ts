import { test } from '@japa/runner'
import fc from 'fast-check'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { encodeHeader } from '#payments/x402_codec'
import { transfer } from '#tests/support/devnet'
import {
  assertDeclaredAnswer,
  assertNothingWritten,
  bodyAround,
  callAtTheEdge,
  databaseFingerprint,
  fuzz,
  isRefusal,
  nastyValue,
  rawCall,
  useFuzzGroup,
} from '#tests/support/fuzz'
import { usePaidCallStack } from '#tests/support/paid_calls'
import { newOwner, registerProvider } from '#tests/support/providers'

const FEED = '/feeds/whale-alerts'

/** A string a query parameter could carry: any text, or a nasty value's text. */
const queryText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  nastyValue.map((value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')))
)

/** Query strings: known and unknown names, repeated names, and raw percent-escapes. */
const queryStrings = fc.oneof(
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom('address', 'chain', 'limit', 'a[]', '__proto__'), queryText),
        queryText
      ),
      { maxLength: 4 }
    )
    .map((pairs) => new URLSearchParams(pairs).toString()),
  fc
    .array(
      fc.constantFrom('%', '%zz', '%C3%28', '%FF', '&', '=', '+', 'address=', ';', '#', '%2F'),
      {
        maxLength: 6,
      }
    )
    .map((parts) => parts.join(''))
)

/**
 * The paid routes' edge: the payment header (around a correctly signed
 * payment), the query strings, and the facilitator's bodies. Refused inputs
 * write nothing; an input that happens to be valid pays, once.
 */
test.group('Fuzzing | paid calls and the facilitator', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  useFuzzGroup(group, { globalTransaction: false })

  async function signedPayment() {
    const quote = await rawCall('GET', FEED)
    const tx = await transfer({
      recipient: stack.payTo,
      amount: BigInt(quote.json.accepts[0].amount),
    })
    return { required: quote.json, hex: tx.serialize() }
  }

  test('the payment-signature header of a built-in feed', async () => {
    const { required, hex } = await signedPayment()
    const valid = {
      x402Version: 2,
      resource: required.resource,
      accepted: required.accepts[0],
      payload: { transaction: hex },
    }
    const headers = fc.oneof(
      {
        weight: 6,
        arbitrary: bodyAround(valid).map((text) => Buffer.from(text).toString('base64')),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
      {
        weight: 1,
        arbitrary: fc.uint8Array({ maxLength: 120 }).map((b) => Buffer.from(b).toString('base64')),
      },
      { weight: 1, arbitrary: fc.constant(encodeHeader(valid)) }
    )
    await fuzz(headers, async (header) => {
      await callAtTheEdge('GET', FEED, { headers: { 'payment-signature': header } }, header)
    })
  })

  test('the query strings of the paid routes, built-in and provider feeds', async ({ client }) => {
    const owner = await newOwner(client)
    await registerProvider(client, owner.token)
    const paths = [...BUILTIN_FEEDS.map(({ id }) => `/feeds/${id}`), '/feeds/p/acme-data/btc-price']

    await fuzz(fc.tuple(fc.constantFrom(...paths), queryStrings), async ([path, query]) => {
      const before = await databaseFingerprint()
      const answer = await rawCall('GET', `${path}?${query}`)
      assertDeclaredAnswer(answer, `${path}?${query}`)
      if (![400, 402, 422, 431].includes(answer.status)) {
        throw new Error(`${path}?${query}: ${answer.status} ${answer.text.slice(0, 200)}`)
      }
      await assertNothingWritten(before, `${path}?${query}`)
    })
  })

  for (const route of ['/facilitator/verify', '/facilitator/settle']) {
    test(`POST ${route}`, async () => {
      const { required, hex } = await signedPayment()
      const valid = {
        x402Version: 2,
        paymentPayload: {
          x402Version: 2,
          accepted: required.accepts[0],
          payload: { transaction: hex },
        },
        paymentRequirements: {
          scheme: 'exact',
          network: required.accepts[0].network,
          amount: required.accepts[0].amount,
          asset: 'STX',
          payTo: stack.payTo,
        },
      }
      await fuzz(bodyAround(valid), async (body) => {
        const before = await databaseFingerprint()
        const answer = await rawCall('POST', route, { body })
        assertDeclaredAnswer(answer, body)
        const reason = answer.json?.invalidReason ?? answer.json?.errorReason
        if (answer.status === 200 && reason) {
          assertDeclaredAnswer({ ...answer, status: 402, json: { error: reason } }, body)
        }
        if (isRefusal(answer) || reason) await assertNothingWritten(before, body)
      })
    })
  }
})
