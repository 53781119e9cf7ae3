# frozen_string_literal: true

# The harness's route check, loaded by patched_oracle.rb on top of the oracle (with or without
# patches). 18xx.games replays a `run_routes` at the revenue its record states: `Route#revenue`
# is memoised from the action's `revenue`, so the route is never traced and none of its checks
# runs (`check_overlap`, `check_connected`, the token, the stops, the distance). A route that
# 18xx.games would refuse, or pay differently, was therefore accepted as written.
#
# Here every route of a `run_routes` is traced again from its hex chains before the action is
# processed: 18xx.games must find the chains (`Route#connection_data`), accept the route with
# all its checks, and pay what the record states; otherwise the action fails with a
# GameError that names the route, and the harness reports the difference at that action.
#
# Example: p2p_purchases, heuristic, 7 players, seed 7143, id 832 (before the fix of 1841
# §9.3's hexside rule): SFTC's 4-train ran H4-G5-E5-D4-F4-E5-G5-F6, over the E5/G5 hexside
# twice; 18xx.games found no chain for it and paid the L.280 of the record.
module StrictRoutes
  def process_run_routes(action)
    action.routes.each_with_index do |route, i|
      stated = route.revenue
      route.clear_cache!
      if route.connection_data.empty? && !route.connection_hexes.to_a.empty?
        raise Engine::GameError,
              "strict route check: route #{i} (train #{route.train.name}): 18xx.games finds " \
              "no track for its hex chains #{route.connection_hexes.inspect}"
      end
      traced = route.revenue
      next if traced == stated

      raise Engine::GameError,
            "strict route check: route #{i} (train #{route.train.name}) pays #{traced} in " \
            "18xx.games, #{stated} in the record"
    end
    super
  end
end

Engine::Step::Route.prepend(StrictRoutes)
