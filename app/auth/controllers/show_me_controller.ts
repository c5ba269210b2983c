import type { HttpContext } from '@adonisjs/core/http'

/** GET /auth/me: the signed-in wallet. `providers` is filled by the providers domain. */
export default class ShowMeController {
  async handle({ auth }: HttpContext) {
    const user = auth.getUserOrFail()
    return { user: { wallet_address: user.walletAddress }, providers: [] }
  }
}
