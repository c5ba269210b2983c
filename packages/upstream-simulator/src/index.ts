export { UpstreamSimulator, type HangTimer, type SimulatedFault } from './upstream_simulator.js'
export {
  defineFixture,
  respond,
  type SimulatedRequest,
  type SimulatedRoute,
  type SimulatorClock,
  type UpstreamFixture,
} from './fixture.js'
export { SIMULATED_UPSTREAMS, type SimulatedUpstream } from './upstreams.js'
export { BUSY_ADDRESS, FRESH_ADDRESS } from './fixtures/ethplorer_addresses.js'
