import router from '@adonisjs/core/services/router'

const ListRegistryFeedsController = () =>
  import('#feeds/controllers/list_registry_feeds_controller')

router.get('/registry/feeds', [ListRegistryFeedsController, 'handle']).as('registry.feeds')
