import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { type IssuedChallenge, SignInChallenges } from '#auth/sign_in_challenges'
import { creditBalanceOf } from '#credit/credit_balance'
import { CreditConfig } from '#credit/define_config'
import { E_REFUND_BELOW_MINIMUM } from '#credit/refund_exceptions'
import { refundStatement } from '#credit/refund_terms'
import { formatStx, type Microstx } from '#ledger/money'

/**
 * POST /credit/refunds/nonce: the message the wallet signs to refund
 * `amount` of its credit to itself (its statement names both). Nothing moves
 * until POST /credit/refunds brings it back signed; the balance is checked
 * then, when the credit is debited. An amount below the minimum is only
 * issued for the whole credit (checked again at the debit).
 */
@inject()
export class IssueRefundChallenge {
  constructor(
    private db: Database,
    private challenges: SignInChallenges,
    private config: CreditConfig
  ) {}

  async execute(address: string, amount: Microstx): Promise<IssuedChallenge> {
    const minimum = this.config.refund.minimumMicrostx
    if (amount < minimum && amount !== (await creditBalanceOf(this.db.connection(), address))) {
      throw new E_REFUND_BELOW_MINIMUM([formatStx(minimum)])
    }
    return this.challenges.issue(address, {
      purpose: 'credit_refund',
      statement: refundStatement(amount, address),
    })
  }
}
