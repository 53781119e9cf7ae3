# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `home-token-keeps-a-stale-region-graph`.
#
# Rule: 1841 §9.2 (a corporation may place a token in a city its track reaches that has a free
# slot), §5.4 (a started corporation's home token takes its slot at once).
#
# 18xx.games: G1841::Game#place_home_token (g_1841/game.rb:566-578) clears only @graph after it
# places a start's home token. G1841 answers every token question with another graph,
# @region_graph (token_graph_for_entity, game.rb:347-349; also the track graph in phase 2,
# select_track_graph, game.rb:331-337), which clear_graph_for_entity (game.rb:351-355) and the
# merger (game.rb:1731-1732) clear, but not the home token. Graph#can_token? (graph.rb:62-64)
# answers from its cache, so when a start's home token takes the last free slot another
# corporation reached, that corporation's next token step still opens (Tokener#can_place_token?,
# step/tokener.rb:22-27: `place_token` and `pass` listed) with no city it may token: the game's
# log then shows a token step with nothing to do. Example: v2 heuristic 3 players seed 3151,
# SSFL's par at id 138 takes O13's only slot, which SFLP reached at id 130; at id 156 18xx.games
# still holds SFLP in "Place a Token" (Referee skips the step: no legal token, §9.2).
#
# What this patch changes: place_home_token also clears @region_graph, as clear_graph_for_entity
# does. Recorded as a correction when the cleared graph had cached an answer of can_token? or
# connected hexes that a fresh graph of the same state answers differently (computed on a
# separate Graph, so the cleared one fills again when 18xx.games next asks, as after any clear).

module OraclePatchHomeTokenKeepsAStaleRegionGraph
  ID = 'home-token-keeps-a-stale-region-graph'

  module Game
    def place_home_token(corporation)
      super
      graph = @region_graph
      return unless graph

      tokens = graph.instance_variable_get(:@tokens).dup
      hexes = graph.instance_variable_get(:@connected_hexes).dup
      graph.clear
      return if tokens.empty? && hexes.empty?

      fresh = Engine::Graph.new(self, check_tokens: true, check_regions: true)
      stale = tokens.select { |corp, answer| fresh.can_token?(corp) != answer }.keys
      stale |= hexes.select { |corp, known| fresh.connected_hexes(corp).keys.sort_by(&:id) != known.keys.sort_by(&:id) }.keys
      return if stale.empty?

      OraclePatches.record(ID, "#{corporation.name}'s home token clears the token graph 18xx.games kept for " \
                               "#{stale.map(&:name).sort.join(', ')}")
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchHomeTokenKeepsAStaleRegionGraph::Game)
OraclePatches.loaded!(OraclePatchHomeTokenKeepsAStaleRegionGraph::ID)
