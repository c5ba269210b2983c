import { randomBytes } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { randomPrivateKey } from '@stacks/transactions'
import { ChainConfig } from '#chain/define_config'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { type Microstx, formatStx } from '#ledger/money'
import { signMessage, walletOf } from '#tests/support/sign_in'

/** A new wallet's key and address. */
export function newWallet() {
  const key = randomPrivateKey()
  return { key, address: walletOf(key) }
}

/**
 * Credits `address` with `amount` as a confirmed top-up leaves it: the
 * confirmed payment row (purpose `credit_top_up`, broadcast by this service)
 * and its `credit_top_up` posting, for a made-up txid — so ledger:audit
 * vouches for it. Answers the txid.
 */
export async function topUp(address: string, amount: Microstx): Promise<string> {
  const ledger = await app.container.make(Ledger)
  const { network } = await app.container.make(ChainConfig)
  const txid = randomBytes(32).toString('hex')
  await db.transaction(async (trx) => {
    await trx.table('payments').insert({
      txid,
      purpose: 'credit_top_up',
      feed_id: null,
      resource: `POST /credit/top-ups?amount_stx=${formatStx(amount)}`,
      payer: address,
      amount_microstx: amount.toString(),
      network: network.caip2,
      raw_tx: Buffer.from([1]),
      status: 'confirmed',
      broadcast_at: new Date(),
    })
    await ledger.post(trx, {
      kind: 'credit_top_up',
      reference: txid,
      entries: [
        { account: accounts.platformWallet, amount },
        { account: accounts.buyerCredit(address), amount: -amount },
      ],
    })
  })
  return txid
}

/** A wallet with `amount` of credit. */
export async function creditedWallet(amount: Microstx) {
  const wallet = newWallet()
  await topUp(wallet.address, amount)
  return wallet
}

/** A refund challenge for `address`, signed with `key` (by default the wallet's own). */
export async function signedRefund(
  client: ApiClient,
  wallet: { address: string; key: string },
  amountStx: string,
  signingKey = wallet.key
) {
  const issued = await client
    .post('/credit/refunds/nonce')
    .json({ address: wallet.address, amount_stx: amountStx })
  if (issued.status() !== 200) {
    throw new Error(`POST /credit/refunds/nonce answered ${issued.status()}: ${issued.text()}`)
  }
  const { message } = issued.body()
  return { message: message as string, signature: signMessage(message, signingKey) }
}
