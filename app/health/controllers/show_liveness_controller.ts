/**
 * GET /health/live: the process is up and its event loop answers. It asks no
 * dependency, so a database outage never has every instance restarted at once.
 */
export default class ShowLivenessController {
  handle() {
    return { status: 'live' }
  }
}
