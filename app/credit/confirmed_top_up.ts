import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { creditBalanceOf, creditBalanceView } from '#credit/credit_balance'
import { accounts } from '#ledger/accounts'
import type { Ledger } from '#ledger/ledger'
import type { Microstx } from '#ledger/money'

export interface ConfirmedTopUp {
  txid: string
  payer: string
  /** What the transfer moved: a transfer above the amount asked is credited in full. */
  amount: Microstx
}

/**
 * A top-up confirmed on chain, in the transaction that marks its payment
 * confirmed: the platform wallet received the amount, and owes it to the
 * payer's credit (`credit_top_up`, referenced by the txid). Answers the
 * exact JSON text of the paid answer, with the balance this posting left,
 * stored on the payment so that every retry and the status route get the
 * same bytes.
 */
export async function postConfirmedTopUp(
  trx: TransactionClientContract,
  ledger: Ledger,
  topUp: ConfirmedTopUp
): Promise<string> {
  const { txid, payer, amount } = topUp
  await ledger.post(trx, {
    kind: 'credit_top_up',
    reference: txid,
    entries: [
      { account: accounts.platformWallet, amount },
      { account: accounts.buyerCredit(payer), amount: -amount },
    ],
  })
  const balance = await creditBalanceOf(trx, payer)
  return JSON.stringify({
    credit: creditBalanceView(payer, balance),
    top_up: { txid: `0x${txid}`, amount_microstx: Number(amount) },
  })
}
