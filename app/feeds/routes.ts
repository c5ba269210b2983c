import router from '@adonisjs/core/services/router'
import { throttle } from '#start/limiter'

const ListRegistryFeedsController = () =>
  import('#feeds/controllers/list_registry_feeds_controller')

router.get('/registry/feeds', [ListRegistryFeedsController, 'handle']).as('registry.feeds')

const IngestPushController = () => import('#feeds/controllers/ingest_push_controller')

router
  .post('/ingest/:handle/:slug', [IngestPushController, 'handle'])
  .as('ingest.push')
  .use(throttle.ingest)
  .accepts({ body: 'json', signature: 'push', status: 202 })
