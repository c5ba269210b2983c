import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { IssueRefundChallenge } from '#credit/actions/issue_refund_challenge'
import { refundNonceValidator } from '#credit/refund_validators'

/** POST /credit/refunds/nonce: the message a wallet signs to refund an amount of its credit to itself. */
@inject()
export default class IssueRefundChallengeController {
  constructor(private issueChallenge: IssueRefundChallenge) {}

  async handle({ request }: HttpContext) {
    const input = await request.validateUsing(refundNonceValidator)
    const challenge = await this.issueChallenge.execute(input.address, input.amount_stx)
    return {
      nonce: challenge.nonce,
      message: challenge.message,
      expires_at: challenge.expiresAt.toISOString(),
    }
  }
}
