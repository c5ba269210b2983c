import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { ownerRoutes } from '#provider_accounts/owner_routes'
import { throttle } from '#start/limiter'
import {
  createFeedValidator,
  feedStateValidator,
  linkWalletNonceValidator,
  linkWalletValidator,
  registerProviderValidator,
  switchModeValidator,
  updateFeedValidator,
  updateProfileValidator,
} from '#provider_accounts/validators'

const ProviderAccountsController = () =>
  import('#provider_accounts/controllers/provider_accounts_controller')
const ProviderFeedsController = () =>
  import('#provider_accounts/controllers/provider_feeds_controller')
const FeedSourceController = () => import('#provider_accounts/controllers/feed_source_controller')
const PartnerBridgeController = () =>
  import('#provider_accounts/controllers/partner_bridge_controller')
const LinkWalletNonceController = () =>
  import('#provider_accounts/controllers/link_wallet_nonce_controller')
const LinkWithdrawalWalletController = () =>
  import('#provider_accounts/controllers/link_withdrawal_wallet_controller')
const ProviderAnalyticsController = () =>
  import('#provider_accounts/controllers/provider_analytics_controller')
const PublicProvidersController = () =>
  import('#provider_accounts/controllers/public_providers_controller')
const ProviderManifestController = () =>
  import('#provider_accounts/controllers/provider_manifest_controller')
const ManifestTemplateController = () =>
  import('#provider_accounts/controllers/manifest_template_controller')
const HandleAvailabilityController = () =>
  import('#provider_accounts/controllers/handle_availability_controller')

/** Registration and the signed-in wallet's providers: a bearer session. */
router
  .group(() => {
    router
      .post('/providers', [ProviderAccountsController, 'store'])
      .as('providers.store')
      .use(throttle.registration)
      .accepts({ body: registerProviderValidator, status: 201 })
    router.get('/me/providers', [ProviderAccountsController, 'mine']).as('providers.mine')
  })
  .use(middleware.auth())

/** Owner routes: a bearer session of the wallet that registered the provider. */
ownerRoutes(() => {
  router.get('/', [ProviderAccountsController, 'show']).as('show')
  router
    .patch('/', [ProviderAccountsController, 'update'])
    .as('update')
    .accepts({ body: updateProfileValidator })
  router.get('/analytics', [ProviderAnalyticsController, 'handle']).as('analytics')
  router.get('/manifest/template', [ManifestTemplateController, 'handle']).as('manifest.template')
  router
    .post('/feeds', [ProviderFeedsController, 'store'])
    .as('feeds.store')
    .use(throttle.feedChanges)
    .accepts({ body: createFeedValidator, status: 201 })
  router.get('/feeds/:slug', [ProviderFeedsController, 'show']).as('feeds.show')
  router
    .patch('/feeds/:slug', [ProviderFeedsController, 'update'])
    .as('feeds.update')
    .use(throttle.feedChanges)
    .accepts({ body: updateFeedValidator })
  router
    .delete('/feeds/:slug', [ProviderFeedsController, 'destroy'])
    .as('feeds.destroy')
    .use(throttle.feedChanges)
    .accepts({ status: 204 })
  router
    .patch('/feeds/:slug/state', [ProviderFeedsController, 'setState'])
    .as('feeds.state')
    .use(throttle.feedChanges)
    .accepts({ body: feedStateValidator })
  router
    .post('/feeds/:slug/upload', [FeedSourceController, 'upload'])
    .as('feeds.upload')
    .use(throttle.feedChanges)
  router
    .post('/feeds/:slug/source/test', [FeedSourceController, 'test'])
    .as('feeds.source_test')
    .use(throttle.sourceTests)
  router
    .post('/feeds/:slug/push-secret/rotate', [FeedSourceController, 'rotate'])
    .as('feeds.push_secret.rotate')
    .use(throttle.feedChanges)
  router
    .post('/mode', [PartnerBridgeController, 'switchMode'])
    .as('mode')
    .use(throttle.feedChanges)
    .accepts({ body: switchModeValidator })
  router
    .post('/hmac/rotate', [PartnerBridgeController, 'rotate'])
    .as('hmac.rotate')
    .use(throttle.feedChanges)
  router
    .post('/hmac/test', [PartnerBridgeController, 'test'])
    .as('hmac.test')
    .use(throttle.hmacTests)
  router
    .post('/link-wallet/nonce', [LinkWalletNonceController, 'handle'])
    .as('link_wallet.nonce')
    .use(throttle.walletLinking)
    .accepts({ body: linkWalletNonceValidator })
  router
    .post('/link-wallet', [LinkWithdrawalWalletController, 'handle'])
    .as('link_wallet')
    .use(throttle.walletLinking)
    .accepts({ body: linkWalletValidator })
}).as('providers.owned')

router.get('/providers', [PublicProvidersController, 'index']).as('providers.index')
router
  .get('/providers/:handle/manifest', [ProviderManifestController, 'handle'])
  .as('providers.manifest')
router.get('/providers/:handle', [PublicProvidersController, 'show']).as('providers.show')
router.get('/handles/:handle', [HandleAvailabilityController, 'handle']).as('handles.show')
