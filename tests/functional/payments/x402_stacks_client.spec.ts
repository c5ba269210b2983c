import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import axios from 'axios'
import { decodePaymentResponse, privateKeyToAccount, wrapAxiosWithPayment } from 'x402-stacks'
import env from '#start/env'
import { FeedCache } from '#feeds/feed_cache'
import { pointAppAtDevnet } from '#tests/support/chain'
import { SENDER } from '#tests/support/devnet'
import { pointBuiltinFeedsAtSimulator } from '#tests/support/paid_calls'
import { inGlobalTransaction } from '#tests/support/database'

const HIRO_TESTNET = 'https://api.testnet.hiro.so'

/**
 * The unmodified x402-stacks client (npm) buys a feed. It asks its
 * hard-wired Hiro testnet host for the payer's nonce and a fee estimate;
 * that host is outside this machine, so only those calls are redirected to
 * the local devnet (which answers the same endpoints).
 */
test.group('An unmodified x402-stacks client', (group) => {
  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const chain = await pointAppAtDevnet({ blockTimeMs: 0 })
    const feeds = await pointBuiltinFeedsAtSimulator()
    const cache = await app.container.make(FeedCache)
    cache.clear()
    const realFetch = globalThis.fetch
    globalThis.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (!url.startsWith(HIRO_TESTNET)) return realFetch(input, init)
      const redirected = url.replace(HIRO_TESTNET, chain.devnet.url)
      return input instanceof Request
        ? realFetch(new Request(redirected, input), init)
        : realFetch(redirected, init)
    }
    return async () => {
      globalThis.fetch = realFetch
      await feeds.restore()
      await chain.cleanup()
    }
  })

  test('buys a built-in feed with wrapAxiosWithPayment', async ({ assert }) => {
    const api = wrapAxiosWithPayment(
      axios.create({ baseURL: `http://${env.get('HOST')}:${env.get('PORT')}`, timeout: 10_000 }),
      privateKeyToAccount(SENDER.privateKey, 'testnet')
    )

    const response = await api.get('/feeds/whale-alerts')

    assert.equal(response.status, 200)
    assert.containsSubset(response.data, { price: 5000, price_stx: '0.005' })
    assert.isObject(response.data.data.summary)
    const settlement = decodePaymentResponse(response.headers['payment-response'])
    assert.containsSubset(settlement, {
      success: true,
      network: 'stacks:2147483648',
      payer: SENDER.address,
    })
  }).timeout(20_000)
})
