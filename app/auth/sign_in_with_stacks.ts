import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { AccessToken } from '@adonisjs/auth/access_tokens'
import User from '#models/user'
import { type ChallengeAnswer, SignInChallenges } from '#auth/sign_in_challenges'

export interface SignedIn {
  user: User
  token: AccessToken
}

/**
 * POST /auth/verify: redeems the wallet's sign-in challenge, creates the
 * user on its first sign-in, and issues a session token.
 */
@inject()
export class SignInWithStacks {
  constructor(
    private db: Database,
    private challenges: SignInChallenges
  ) {}

  async execute(answer: ChallengeAnswer): Promise<SignedIn> {
    await this.challenges.redeem(answer, { purpose: 'sign_in' })
    await this.db.rawQuery(
      'INSERT INTO users (wallet_address) VALUES (?) ON CONFLICT (wallet_address) DO NOTHING',
      [answer.walletAddress]
    )
    const user = await User.findByOrFail('walletAddress', answer.walletAddress)
    const token = await User.accessTokens.create(user)
    return { user, token }
  }
}
