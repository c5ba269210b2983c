import { randomBytes, randomUUID } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'

/**
 * A call of `price` paid from the wallet's credit, as its statement shows it:
 * the credit call's row (on a built-in feed, for `resource`) and its posting.
 * Answers the call's id.
 */
export async function creditCall(address: string, price: bigint, resource = '/feeds/btc-price') {
  const ledger = await app.container.make(Ledger)
  const feed = await db.from('feeds').whereNull('provider_id').select('id').firstOrFail()
  const id = randomUUID()
  await db.transaction(async (trx) => {
    const [token] = await trx
      .table('credit_tokens')
      .insert({
        token_hash: randomBytes(32).toString('hex'),
        address,
        spend_cap_microstx: '1000000',
        max_price_microstx: '1000000',
        spent_microstx: price.toString(),
        sign_in_nonce: randomBytes(16).toString('hex'),
        expires_at: new Date(Date.now() + 3_600_000),
        created_at: new Date(),
      })
      .returning('id')
    await trx.table('credit_calls').insert({
      id,
      token_id: token.id,
      payer: address,
      feed_id: feed.id,
      resource,
      price_microstx: price.toString(),
      response: '{}',
      response_ms: 1,
      created_at: new Date(),
    })
    await ledger.post(trx, {
      kind: 'credit_call',
      reference: id,
      entries: ledger.paymentEntries({
        amount: price,
        providerId: null,
        paidFrom: accounts.buyerCredit(address),
      }),
    })
  })
  return id
}
