import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { E_CHALLENGE_NOT_FOUND, E_CHALLENGE_USED, E_SIGNATURE_INVALID } from '#auth/exceptions'
import { SignInChallenges } from '#auth/sign_in_challenges'
import { isSignedBy } from '#auth/wallet_signature'
import { ChainConfig } from '#chain/define_config'
import { creditBalanceOf } from '#credit/credit_balance'
import { CreditConfig } from '#credit/define_config'
import { E_REFUND_ABOVE_CREDIT, E_REFUND_BELOW_MINIMUM } from '#credit/refund_exceptions'
import { type RefundTerms, refundStatement, refundTermsOf } from '#credit/refund_terms'
import { formatStx } from '#ledger/money'
import { consumeRateLimit } from '#start/limiter'
import { WithdrawalDispatcher } from '#withdrawals/withdrawal_dispatcher'
import { WithdrawalLifecycle } from '#withdrawals/withdrawal_lifecycle'
import { type Withdrawal, WithdrawalRecords } from '#withdrawals/withdrawal_records'

export interface SignedRefund {
  /** The issued challenge's message, as signed. */
  message: string
  signature: string
}

/**
 * POST /credit/refunds (docs/credit.md#refunds): the wallet's signature of a
 * refund challenge (POST /credit/refunds/nonce) moves the amount it names
 * from the wallet's credit to the wallet itself, through the withdrawal
 * pipeline. The idempotency key comes from the challenge's nonce, so the same
 * signed message sent again answers the same refund (checked before anything
 * else, and again when a concurrent retry consumed the nonce first) and never
 * pays twice. Otherwise, in one transaction: the nonce consumed, the
 * conditional debit of the credit and the row, then the minimum (a smaller
 * refund only of the whole credit); a refusal writes nothing
 * (the nonce stays usable). After the commit the platform wallet's pipeline
 * signs and sends it.
 */
@inject()
export class RequestRefund {
  constructor(
    private db: Database,
    private challenges: SignInChallenges,
    private lifecycle: WithdrawalLifecycle,
    private records: WithdrawalRecords,
    private dispatcher: WithdrawalDispatcher,
    private chain: ChainConfig,
    private config: CreditConfig
  ) {}

  async execute(signed: SignedRefund): Promise<{ refund: Withdrawal; created: boolean }> {
    const terms = refundTermsOf(signed.message)
    if (!terms) throw new E_CHALLENGE_NOT_FOUND()
    const earlier = await this.#earlier(terms, signed)
    if (earlier) return { refund: earlier, created: false }

    let refund: Withdrawal
    try {
      refund = await this.#request(terms, signed)
    } catch (error) {
      const retried = error instanceof E_CHALLENGE_USED && (await this.#earlier(terms, signed))
      if (retried) return { refund: retried, created: false }
      throw error
    }
    return { refund: await this.dispatcher.dispatchRequested(refund.id), created: true }
  }

  #request(terms: RefundTerms, signed: SignedRefund) {
    const { address, amount } = terms
    const minimum = this.config.refund.minimumMicrostx
    return this.db.transaction(async (trx) => {
      await this.challenges.redeem(
        { walletAddress: address, nonce: terms.nonce, ...signed },
        { purpose: 'credit_refund', statement: refundStatement(amount, address), client: trx }
      )
      await this.#count(address)
      const refund = await this.lifecycle.request(trx, {
        owner: { providerId: null, creditAddress: address },
        idempotencyKey: terms.idempotencyKey,
        amount,
        destination: address,
        memoPrefix: this.chain.withdrawalMemoPrefix,
      })
      const left = await creditBalanceOf(trx, address)
      if (!refund) throw new E_REFUND_ABOVE_CREDIT([formatStx(left)])
      // Below the minimum only the whole credit: the debit locked the account, so no call can
      // have spent from it between the debit and this read.
      if (amount < minimum && left !== 0n) throw new E_REFUND_BELOW_MINIMUM([formatStx(minimum)])
      return refund
    })
  }

  /**
   * The refund this signed message already made, answered only to the
   * wallet's signature of it (the nonce it names is the refund's key).
   */
  async #earlier(terms: RefundTerms, signed: SignedRefund): Promise<Withdrawal | null> {
    const refund = await this.records.findByKey(
      { providerId: null, creditAddress: terms.address },
      terms.idempotencyKey
    )
    if (!refund) return null
    const signedByWallet = isSignedBy({
      message: signed.message,
      signature: signed.signature,
      address: terms.address,
      network: this.chain.network,
    })
    if (!signedByWallet) throw new E_SIGNATURE_INVALID()
    await this.#count(terms.address)
    return refund
  }

  /**
   * Counts a refund request against the wallet's limit, once the wallet's
   * signature verified: anyone can name a wallet, only the wallet can use up
   * its refunds.
   */
  #count(address: string) {
    return consumeRateLimit('refunds', `wallet_${address}`)
  }
}
