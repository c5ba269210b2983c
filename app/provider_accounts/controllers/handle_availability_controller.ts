import type { HttpContext } from '@adonisjs/core/http'
import { handleAvailability } from '#provider_accounts/handle_availability'

/** GET /handles/:handle: may a new provider take this handle? */
export default class HandleAvailabilityController {
  handle({ params }: HttpContext) {
    return handleAvailability(String(params.handle))
  }
}
