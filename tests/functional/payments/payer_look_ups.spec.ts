import type { ApiClient } from '@japa/api-client'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import { FeedCache } from '#feeds/feed_cache'
import type { PaymentRequired } from '#payments/x402'
import { pointAppAtDevnet, stacksClientOptions } from '#tests/support/chain'
import { transfer } from '#tests/support/devnet'
import {
  paymentHeader,
  pointBuiltinFeedsAtSimulator,
  withoutSettlementDelays,
} from '#tests/support/paid_calls'
import { inGlobalTransaction } from '#tests/support/database'

class CountingClient extends StacksClient {
  accountLookUps = 0
  async getAccount(address: string) {
    this.accountLookUps++
    return super.getAccount(address)
  }
}

test.group('Payer look-ups of a buyer paying in a row', (group) => {
  /** The app's node client (payer look-ups cached as in production) and the platform wallet. */
  const stack = {} as { chain: CountingClient; payTo: string }

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const chain = await pointAppAtDevnet(
      { blockTimeMs: 0 },
      {
        client: (url) => new CountingClient(stacksClientOptions(url, { timeoutMs: 5_000 })),
        payerAccountTtlMs: 60_000,
      }
    )
    const feeds = await pointBuiltinFeedsAtSimulator()
    const restoreConfig = withoutSettlementDelays(10_000)
    const cache = await app.container.make(FeedCache)
    cache.clear()
    const wallet = await app.container.make(PlatformWallet)
    Object.assign(stack, { chain: chain.client, payTo: wallet.address })
    return async () => {
      restoreConfig()
      await feeds.restore()
      await chain.cleanup()
    }
  })

  /** A paid call of whale-alerts by the devnet's sender at `nonce`. */
  async function payAt(client: ApiClient, nonce: bigint) {
    const quote = await client.get('/feeds/whale-alerts')
    const required = quote.body() as PaymentRequired
    const tx = await transfer({ recipient: stack.payTo, amount: 5_000n, nonce })
    return client
      .get('/feeds/whale-alerts')
      .header('payment-signature', paymentHeader(required, tx.serialize()))
  }

  test('its next payment is checked against what its confirmed one left: one node look-up', async ({
    client,
    assert,
  }) => {
    for (const nonce of [0n, 1n, 2n]) {
      const response = await payAt(client, nonce)
      response.assertStatus(200)
    }

    // Before: the held answer (next nonce 0) refused nonces 1 and 2, and the node was asked again.
    assert.equal(stack.chain.accountLookUps, 1)
  })

  test('a payment the held answer refuses is still re-checked against the node', async ({
    client,
    assert,
  }) => {
    const first = await payAt(client, 0n)
    first.assertStatus(200)

    // Nonce 2 skips nonce 1: refused, as the node would hold it, after asking the node again.
    const ahead = await payAt(client, 2n)

    ahead.assertStatus(402)
    assert.equal(ahead.body().error, 'bad_nonce')
    assert.equal(stack.chain.accountLookUps, 2)
  })
})
