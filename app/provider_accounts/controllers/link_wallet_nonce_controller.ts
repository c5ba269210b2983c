import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { IssuedChallenge } from '#auth/sign_in_challenges'
import { IssueLinkWalletChallenges } from '#provider_accounts/actions/issue_link_wallet_challenges'
import { linkWalletNonceValidator } from '#provider_accounts/validators'

function challengeView(challenge: IssuedChallenge) {
  return {
    nonce: challenge.nonce,
    message: challenge.message,
    expires_at: challenge.expiresAt.toISOString(),
  }
}

/** POST /providers/id/:id/link-wallet/nonce: what the new wallet and (unless it is the owner wallet) the owner wallet sign. */
@inject()
export default class LinkWalletNonceController {
  constructor(private issueChallenges: IssueLinkWalletChallenges) {}

  async handle({ ownedProvider, request }: HttpContext) {
    const { wallet_address: address } = await request.validateUsing(linkWalletNonceValidator)
    const challenges = await this.issueChallenges.execute(ownedProvider, address)
    return {
      ...challengeView(challenges.wallet),
      owner_challenge: challenges.owner ? challengeView(challenges.owner) : null,
    }
  }
}
