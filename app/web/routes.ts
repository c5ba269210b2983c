import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ShowHomePageController = () => import('#web/controllers/show_home_page_controller')
const ShowFeedPageController = () => import('#web/controllers/show_feed_page_controller')
const ShowLeaderboardPageController = () =>
  import('#web/controllers/show_leaderboard_page_controller')
const ShowActivityPageController = () => import('#web/controllers/show_activity_page_controller')
const ShowProvidersPageController = () => import('#web/controllers/show_providers_page_controller')
const ShowProviderPageController = () => import('#web/controllers/show_provider_page_controller')
const ShowProviderVerificationPageController = () =>
  import('#web/controllers/show_provider_verification_page_controller')
const ShowDashboardPageController = () => import('#web/controllers/show_dashboard_page_controller')
const ShowCreditPageController = () => import('#web/controllers/show_credit_page_controller')
const ShowApiReferencePageController = () =>
  import('#web/controllers/show_api_reference_page_controller')

/**
 * The pages people use. They live at `/` and under /market, /dashboard and
 * /docs, prefixes no API path uses, and at /credit, which no API path is
 * (the credit API is under it), so a page never shadows the JSON an
 * agent reads (GET /providers/:handle, /leaderboard, … stay JSON for
 * everyone). Each carries `middleware.pageHeaders()`, which is also what
 * keeps it out of /openapi.json (app/web/page_routes.ts).
 */
router
  .group(() => {
    router.get('/', [ShowHomePageController, 'handle']).as('home')
    router
      .group(() => {
        router
          .get('feeds/p/:handle/:slug', [ShowFeedPageController, 'provider'])
          .as('feeds.provider')
        router.get('feeds/:id', [ShowFeedPageController, 'builtin']).as('feeds.builtin')
        router.get('leaderboard', [ShowLeaderboardPageController, 'handle']).as('leaderboard')
        router.get('activity', [ShowActivityPageController, 'handle']).as('activity')
        router.get('providers', [ShowProvidersPageController, 'handle']).as('providers')
        router.get('providers/:handle', [ShowProviderPageController, 'handle']).as('provider')
        router
          .get('providers/:handle/verification', [ShowProviderVerificationPageController, 'handle'])
          .as('provider_verification')
      })
      .prefix('/market')
      .as('market')
    router
      .group(() => {
        router.get('/', [ShowDashboardPageController, 'handle']).as('home')
        router.get('register', [ShowDashboardPageController, 'handle']).as('register')
        router.get('p/:id', [ShowDashboardPageController, 'handle']).as('overview')
        router.get('p/:id/new-feed', [ShowDashboardPageController, 'handle']).as('new_feed')
        router.get('p/:id/feeds/:slug', [ShowDashboardPageController, 'handle']).as('feed')
        router.get('p/:id/payouts', [ShowDashboardPageController, 'handle']).as('payouts')
        router.get('p/:id/integration', [ShowDashboardPageController, 'handle']).as('integration')
        router.get('p/:id/profile', [ShowDashboardPageController, 'handle']).as('profile')
      })
      .prefix('/dashboard')
      .as('dashboard')
    router.get('/credit', [ShowCreditPageController, 'handle']).as('credit')
    router.get('/docs/api', [ShowApiReferencePageController, 'handle']).as('docs.api')
  })
  .use(middleware.pageHeaders())
  .as('web')
