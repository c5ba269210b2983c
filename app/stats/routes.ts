import router from '@adonisjs/core/services/router'
import { activityQueryValidator } from '#stats/activity_validator'

const ShowStatsController = () => import('#stats/controllers/show_stats_controller')
const ShowActivityController = () => import('#stats/controllers/show_activity_controller')
const ShowLeaderboardController = () => import('#stats/controllers/show_leaderboard_controller')

router.get('/stats', [ShowStatsController, 'handle']).as('stats')
router
  .get('/activity', [ShowActivityController, 'handle'])
  .as('activity')
  .accepts({ query: activityQueryValidator })
router.get('/leaderboard', [ShowLeaderboardController, 'handle']).as('leaderboard')
