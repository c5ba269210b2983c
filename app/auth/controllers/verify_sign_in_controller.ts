import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { SignInWithStacks } from '#auth/sign_in_with_stacks'
import { messageAsSent, verifyRequestValidator } from '#auth/validators'

/** POST /auth/verify: a signed challenge in, a session token out. */
@inject()
export default class VerifySignInController {
  constructor(private signIn: SignInWithStacks) {}

  async handle({ request }: HttpContext) {
    const input = await request.validateUsing(verifyRequestValidator)
    const { user, token } = await this.signIn.execute({
      walletAddress: input.wallet_address,
      nonce: input.nonce,
      signature: input.signature,
      publicKey: input.public_key ?? input.publicKey,
      message: messageAsSent(request.raw(), input.message),
    })
    return {
      token: token.value!.release(),
      expires_at: token.expiresAt!.toISOString(),
      user: { wallet_address: user.walletAddress },
    }
  }
}
