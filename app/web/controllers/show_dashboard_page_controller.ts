import type { HttpContext } from '@adonisjs/core/http'

/**
 * The provider pages (/dashboard/…): a shell whose island signs in with the
 * wallet and then calls the owner API with the session's bearer token, as
 * any client of the API would. The server renders no owner data itself.
 */
export default class ShowDashboardPageController {
  async handle({ params, route, view }: HttpContext) {
    return view.render('pages/dashboard', {
      screen: route?.name?.replace(/^web\.dashboard\.?/, '') || 'home',
      providerId: params.id ?? null,
      slug: params.slug ?? null,
    })
  }
}
