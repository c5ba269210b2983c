import type { HttpContext } from '@adonisjs/core/http'

/** POST /auth/logout: revokes the bearer token of the request. */
export default class LogoutController {
  async handle({ auth, response }: HttpContext) {
    await auth.use('api').invalidateToken()
    return response.noContent()
  }
}
