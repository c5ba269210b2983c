import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { SignInChallenges } from '#auth/sign_in_challenges'
import { nonceRequestValidator } from '#auth/validators'

/** POST /auth/nonce: the message the wallet signs to sign in. */
@inject()
export default class IssueNonceController {
  constructor(private challenges: SignInChallenges) {}

  async handle({ request }: HttpContext) {
    const { wallet_address: walletAddress } = await request.validateUsing(nonceRequestValidator)
    const challenge = await this.challenges.issue(walletAddress)
    return {
      nonce: challenge.nonce,
      message: challenge.message,
      expires_at: challenge.expiresAt.toISOString(),
    }
  }
}
