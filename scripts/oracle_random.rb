# frozen_string_literal: true

# Plays random games of 1841 on 18xx.games' own engine (the oracle, issue #21) and writes each
# game in 18xx.games' export format (what `oracle.rb` and `referee replay-18xx` load).
#
#   ruby scripts/oracle_random.rb --mode v2 --players 4 --seed 7 --out DIR [--games N]
#        [--max-actions 3000] [--quiet]
#
# Modes (18xx.games' optional rules): v2 (none, 3-8 players), lite (3-6), version_1,
# version_1+sfli (version_1 + sfli_run_variant), p2p_purchases. `--players 0` cycles through the
# mode's player counts. Game k of a batch uses seed SEED+k; the file is DIR/MODE-pP-sSEED.json.
#
# Each move is drawn among the actions the current step offers, restricted the way the
# 18xx.games web UI restricts them (the raw engine accepts a few actions the UI never offers):
# tiles from `upgradeable_tiles` (the phase's colours, `upgrades_to?`, legal rotations only) on
# hexes the step marks available; tokens in cities `tokenable?` on available hexes; shares the
# step `can_buy?`/`can_sell?`; par prices from `get_par_prices`; trains from `buyable_trains`
# at a price within `spend_minmax`; routes from the engine's own auto-router path walk
# (combined greedily, best revenue first); choices from `choices`. Moves are processed with
# `add_auto_actions: true`, as the web UI does, so the recorded actions carry 18xx.games'
# automatic actions exactly as a stored game does. A move the engine still refuses is dropped
# (the game is reloaded from its recorded actions) and another is drawn. Choices are biased a
# little (lay track, buy trains and shares, merge, transform; pass less) so that games reach
# mergers, transformations, the Ferdinandea split, the Tuscan merge and the late phases.
#
# The engine is found through REFEREE_ORACLE_18XX (default ../shared/oracle-18xx relative to
# the repository root).

ENV['ENGINE_LOG_LEVEL'] ||= '4'
ROOT = File.expand_path('..', __dir__)
ORACLE = File.expand_path(ENV['REFEREE_ORACLE_18XX'] || File.join(ROOT, '..', 'shared', 'oracle-18xx'), ROOT)
unless File.file?(File.join(ORACLE, 'oracle.rb'))
  warn "oracle_random: no 18xx.games engine at #{ORACLE} (set REFEREE_ORACLE_18XX)"
  exit 2
end
$LOAD_PATH.unshift(File.join(ORACLE, 'shim'), File.join(ORACLE, 'lib'))

require 'json'
require 'fileutils'
require 'engine'
# auto_router.rb embeds its JavaScript in a %x{} literal, which plain Ruby runs as a shell
# command when the file loads: keep its complaint off stderr.
begin
  saved = $stderr.dup
  $stderr.reopen(File::NULL)
  require 'engine/auto_router'
ensure
  $stderr.reopen(saved)
end

module OracleRandom
  MODES = {
    'v2' => [[], (3..8).to_a],
    'lite' => [%w[lite], (3..6).to_a],
    'version_1' => [%w[version_1], (3..8).to_a],
    'version_1+sfli' => [%w[version_1 sfli_run_variant], (3..8).to_a],
    'p2p_purchases' => [%w[p2p_purchases], (3..8).to_a],
  }.freeze

  # Relative weight of each action type when several are offered.
  WEIGHTS = {
    'lay_tile' => 6.0, 'place_token' => 4.0, 'run_routes' => 20.0, 'dividend' => 1.0,
    'buy_train' => 10.0, 'buy_train@corporation' => 0.3, 'buy_shares' => 3.0, 'par' => 4.0, 'buy_company' => 1.5,
    'sell_shares' => 0.2, 'merge' => 1.5, 'choose' => 1.0, 'bid' => 2.0, 'blind_bid' => 1.0,
    'buy_token' => 0.2, 'remove_token' => 1.0, 'discard_train' => 1.0, 'bankrupt' => 0.05,
    'pass' => 1.0
  }.freeze

  A = Engine::Action
  TIMES = Hash.new(0.0)
  FORK = Process.respond_to?(:fork) && ENV['ORACLE_RANDOM_NO_FORK'].nil?

  class Player
    attr_reader :game, :refused, :reloads, :stuck, :accepted, :load_mismatches

    def initialize(mode, players, seed, max_actions: 3000)
      rules, = MODES.fetch(mode)
      @mode = mode
      @seed = seed
      @rng = Random.new(seed)
      @names = (1..players).to_h { |i| [i, "Player #{i}"] }
      @rules = rules
      @max_actions = max_actions
      @refused = 0
      @reloads = 0
      @accepted = []
      @backtracks = 0
      @recent = {}
      @load_mismatches = 0
      @bad_merges = []
      @forbidden = Hash.new { |h, k| h[k] = [] }
      @game = new_game([])
    end

    def new_game(actions)
      Engine::Game::G1841::Game.new(@names, id: @seed, seed: @seed, actions: actions,
                                            optional_rules: @rules.map(&:to_sym))
    end

    def play
      stuck = 0
      until @game.finished || @accepted.size >= @max_actions
        moves = candidates
        if moves.empty?
          info = round.active_entities.compact.map { |e| [e.id, round.actions_for(e), round.active_step&.class&.name] }
          @stuck = "no move offered after #{@accepted.size} actions: #{info}"
          break
        end

        # Candidates are kept as hashes: a refused move reloads the game, and the hashes stay
        # valid for the reloaded game (its objects are new).
        forbidden = @forbidden[@accepted.size]
        recent = @recent.select { |_, at| at + 25 > @accepted.size }.keys
        moves = moves.transform_values { |list| list.map { |a| plain(a) }.uniq - forbidden - recent - @bad_merges }
        moves.reject! { |_, v| v.empty? }
        done = false
        8.times do
          break if moves.empty?

          type, action = draw(moves)
          if apply(action)
            done = true
            break
          end
          moves[type].delete(action)
          moves.delete(type) if moves[type].empty?
          break if moves.empty?
        end
        stuck = done ? 0 : stuck + 1
        # 18xx.games does not always load what it accepted live: check now and then (a
        # mismatch drops the actions from there on, the sooner the fewer).
        reload if done && (@accepted.size % 150).zero?
        if ENV['ORACLE_RANDOM_DEBUG'] && (@accepted.size % 100).zero? && done
          warn "#{@accepted.size} actions, round #{round.name} #{@game.turn}.#{round.round_num}, " \
               "phase #{@game.phase.name}: #{TIMES.select { |_, v| v > 0.5 }.transform_values { |v| v.round(1) }}"
        end
        next unless stuck > 3 || @refused > 400

        # Nothing goes: 18xx.games wants an undo (a merger without a president, a transformed
        # corporation that cannot pay for its tokens): take back the last merger or
        # transformation and never try it again. Else 18xx.games itself cannot go on (it
        # fails in its own code): keep the game as played so far.
        if @backtracks < 40 && backtrack
          stuck = 0
          next
        end
        @stuck = "no move accepted after #{@accepted.size} actions"
        break
      end
      # What is written must load: check it as 18xx.games loads a stored game.
      reload
      @game
    end

    def backtrack
      j = @accepted.size - 1
      j -= 1 while j > @accepted.size - 40 && j >= 0 && @accepted[j]['type'] != 'merge'
      return false unless j >= 0 && @accepted[j]['type'] == 'merge'

      j -= 1 while j.positive? && @accepted[j - 1]['type'] == 'merge'
      @backtracks += 1
      @forbidden[j] << plain_h(@accepted[j])
      @bad_merges << plain_h(@accepted[j])
      @accepted = @accepted[0...j]
      reload
      true
    end

    def plain_h(h)
      h = h.dup
      %w[id created_at user auto_actions].each { |key| h.delete(key) }
      JSON.parse(JSON.generate(h))
    end

    # Whether the engine accepts `action`, asked of a forked copy of this process (a refused
    # action leaves the engine's state damaged; reloading costs a whole replay).
    def accepted_by_copy?(action)
      reader, writer = IO.pipe
      pid = fork do
        reader.close
        @game.process_action(JSON.parse(JSON.generate(action)), add_auto_actions: true)
        writer.write(@game.exception ? "#{@game.exception.message}\n#{@game.exception.backtrace&.first(3)}" : '')
        writer.close
        exit!(@game.exception ? 1 : 0)
      end
      writer.close
      why = reader.read
      reader.close
      Process.wait(pid)
      return true if $?.success?

      @refused += 1
      @recent[action] = @accepted.size
      (@refusals ||= Hash.new(0))[action['type'] + ': ' + why.gsub(/[0-9]+/, 'N')[0, 60]] += 1
      warn "refused #{action}: #{why}" if ENV['ORACLE_RANDOM_DEBUG']
      false
    end

    def apply(action)
      return false if FORK && !accepted_by_copy?(action)

      t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      @game.process_action(JSON.parse(JSON.generate(action)), add_auto_actions: true)
      TIMES['~apply'] += Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
      unless @game.exception
        @accepted << JSON.parse(JSON.generate(@game.raw_actions[-1]))
        return true
      end

      @refused += 1
      @recent[action] = @accepted.size
      @reloads += 1
      (@refusals ||= Hash.new(0))[action['type'] + ': ' + @game.exception.message.gsub(/[0-9]+/, 'N')[0, 60]] += 1
      warn "refused #{action}: #{@game.exception.message} #{@game.exception.backtrace.first(4)}" if ENV["ORACLE_RANDOM_DEBUG"]
      # The engine's own list may be damaged by a refused action (its auto actions are still
      # added): reload from the accepted ones.
      reload
      false
    end

    # Rebuilds the game from the accepted actions. Where 18xx.games does not load what it
    # accepted live (it happens: a live game and a loaded one can differ), the actions from
    # there on are dropped, so that every written game loads.
    def reload
      t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      3.times do
        @game = new_game(@accepted.map { |h| JSON.parse(JSON.generate(h)) })
        break unless @game.exception

        bad = @game.broken_action&.id
        File.write("/tmp/oracle_random_mismatch_#{@seed}.json", JSON.generate(export)) if ENV['ORACLE_RANDOM_DEBUG']
        cut = @accepted.index { |h| h['id'] == bad } || @accepted.size - 1
        warn "reload: 18xx.games refuses its own action #{bad} (#{@game.exception.message[0, 80]}); dropping " \
             "#{@accepted.size - cut} actions" if ENV['ORACLE_RANDOM_DEBUG']
        @load_mismatches += 1
        @accepted = @accepted[0...cut]
      end
      TIMES['~reload'] += Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
      raise "reload failed: #{@game.exception}" if @game.exception
    end

    def refusals
      @refusals || {}
    end

    def plain(action)
      plain_h(action.to_h)
    end

    def draw(moves)
      total = moves.keys.sum { |t| weight(t, moves) }
      pick = @rng.rand * total
      type = moves.keys.find do |t|
        pick -= weight(t, moves)
        pick <= 0
      end || moves.keys.last
      list = moves[type]
      [type, list[@rng.rand(list.size)]]
    end

    def weight(type, moves)
      w = WEIGHTS.fetch(type, 1.0)
      # An auction goes on while anyone bids: pass more readily once a concession is contested.
      w = 3.0 if type == 'pass' && moves.key?('bid')
      w
    end

    def round
      @game.round
    end

    # { type => [action, ...] } for every entity that may act now.
    def candidates
      out = Hash.new { |h, k| h[k] = [] }
      entities = round.active_entities.compact
      entities += entities.map { |e| e.respond_to?(:player) ? e.player : nil }.compact
      entities.uniq.each do |entity|
        round.actions_for(entity).uniq.each do |type|
          step = round.step_for(entity, type)
          next unless step

          t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          list = begin
            moves_for(type, entity, step)
          rescue Engine::GameError
            []
          end
          TIMES[type] += Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
          if type == 'buy_train'
            # Trains bought from other corporations at random prices would go round in
            # circles: now and then only.
            own, other = list.partition { |a| a.train.owner == @game.depot || a.train.owner.nil? }
            out['buy_train'].concat(own)
            out['buy_train@corporation'].concat(other)
          else
            out[type].concat(list)
          end
        end
      end
      out.reject { |_, v| v.empty? }
    end

    def moves_for(type, entity, step)
      case type
      when 'pass' then [A::Pass.new(entity)]
      when 'bid' then bids(entity, step)
      when 'blind_bid' then [blind_bid(entity, step)]
      when 'buy_shares' then buy_shares(entity, step)
      when 'sell_shares' then sell_shares(entity, step)
      when 'par' then pars(entity, step)
      when 'buy_company' then buy_companies(entity, step)
      when 'place_token' then place_tokens(entity, step)
      when 'lay_tile' then lay_tiles(entity, step)
      when 'run_routes' then run_routes(entity)
      when 'dividend' then step.dividend_types.map { |k| A::Dividend.new(entity, kind: k.to_s) }
      when 'buy_train' then buy_trains(entity, step)
      when 'discard_train' then step.trains(entity).map { |t| A::DiscardTrain.new(entity, train: t) }
      when 'choose' then choices(entity, step)
      when 'remove_token' then remove_tokens(entity, step)
      when 'buy_token' then buy_tokens(entity, step)
      when 'merge' then step.mergeable(entity).map { |c| A::Merge.new(entity, corporation: c) }
      when 'bankrupt'
        # The UI offers bankruptcy in the train purchase (and the token emergency) only.
        return [] unless round.active_step.is_a?(Engine::Step::BuyTrain) ||
                         round.active_step.is_a?(Engine::Game::G1841::Step::TokenEmergencyMoney)

        player = entity.corporation? ? entity.player : entity
        return [] unless safe { @game.can_go_bankrupt?(player, entity) }

        @game.bankruptcy_options(entity).map { |o| A::Bankrupt.new(entity, option: o) }
      else []
      end
    end

    def bids(entity, step)
      step.available.filter_map do |company|
        next unless !step.respond_to?(:may_bid?) || step.may_bid?(company)

        min = step.min_bid(company)
        max = step.max_bid(entity, company)
        next if !min || min > max

        price = [min + (5 * @rng.rand(4)), max].min
        A::Bid.new(entity, company: company, price: price)
      end
    end

    def blind_bid(entity, step)
      cash = entity.cash
      bids = step.blind_choices(entity).map do
        next 0 if @rng.rand < 0.45 || cash < 20

        b = [20 + (5 * @rng.rand(8)), cash].min
        cash -= b
        b
      end
      A::BlindBid.new(entity, bids: bids)
    end

    def bundle_action(entity, bundle, klass)
      klass.new(entity, shares: bundle.shares, share_price: bundle.share_price, percent: bundle.percent)
    end

    def buy_shares(entity, step)
      out = []
      @game.corporations.each do |corp|
        next unless corp.ipoed

        ipo = corp.ipo_shares.reject(&:president).min_by(&:percent)
        out << bundle_action(entity, ipo.to_bundle, A::BuyShares) if ipo && step.can_buy?(entity, ipo.to_bundle)
        pool = @game.share_pool.shares_of(corp).min_by(&:percent)
        out << bundle_action(entity, pool.to_bundle, A::BuyShares) if pool && step.can_buy?(entity, pool.to_bundle)
        next unless step.respond_to?(:flexible_bundles) && step.respond_to?(:can_buy_any_from_player?) &&
                    step.can_buy_any_from_player?(entity)
        # During the Ferdinandea split IRSFF has left the market (`share_price` nil) while its
        # shares wait to be exchanged: there is no price to offer around (p2p_purchases 3p
        # seed 40003 crashed here).
        next unless corp.share_price

        @game.players.each do |owner|
          next if owner == entity

          step.flexible_bundles(entity, owner, corp).each do |b|
            price = [(corp.share_price.price * b.num_shares * (0.5 + @rng.rand)).round, 1].max
            next unless step.flexible_can_buy_shares?(entity, b.shares, price)

            out << A::BuyShares.new(entity, shares: b.shares, percent: b.percent, total_price: price)
          end
        end
      end
      out
    end

    def sell_shares(entity, step)
      # The train step offers emergency sales whenever a train could be bought; it takes them
      # only when one must be.
      # The UI shows the president's emergency sales only when the corporation must buy a
      # train and cannot pay for the cheapest one, and its own chain has nothing left to sell
      # (`president_may_contribute?`).
      if step.is_a?(Engine::Step::BuyTrain) || step.is_a?(Engine::Game::G1841::Step::TokenEmergencyMoney)
        corp = step.is_a?(Engine::Step::BuyTrain) ? step.current_entity : step.active_entity
        if step.is_a?(Engine::Step::BuyTrain)
          return [] unless step.must_buy_train?(corp)
          return [] if @game.emergency_cash_before_issuing(corp) >= @game.depot.min_depot_price
        end
        return [] if entity.player? && !safe { step.president_may_contribute?(corp) }
      end

      bundles = []
      if entity.corporation? && step.respond_to?(:issuable_shares)
        bundles.concat(Array(step.issuable_shares(entity)))
        # A corporation's emergency sales in the train step: only what the UI offers
        # (`issuable_shares`: the first corporation of the chain with something to sell,
        # bundles short of the need plus one half-price share, 1841 §14). The engine's own
        # `process_sell_shares` checks only `emr_can_sell?`, so any bundle would load (e.g. 60%
        # of IRSFF's IPO where 20% covers the need), which no player can do on 18xx.games.
        if step.is_a?(Engine::Step::BuyTrain)
          return bundles.uniq { |b| [b.shares.map(&:id), b.percent] }
                        .select { |b| safe { step.can_sell?(entity, b) } }
                        .map { |b| bundle_action(entity, b, A::SellShares) }
        end
      end
      @game.corporations.each do |corp|
        next unless corp.share_price

        # A player's emergency sales in the train step: the bundles the step offers
        # (`G1841::Step::BuyTrain#sellable_bundles`, at half price, 1841 §14, issue #9348),
        # as the UI sends them (`share_price` set). The engine takes a bundle without a
        # `share_price` at the market price, so the driver recorded full-price sales no
        # player can make (lite 5p seed 40003 ids 424-425: L.12 more for AFI).
        if entity.player? && step.is_a?(Engine::Step::BuyTrain) && step.respond_to?(:sellable_bundles)
          step.sellable_bundles(entity, corp).each { |b| bundles << b }
        else
          @game.bundles_for_corporation(entity, corp).each { |b| bundles << b }
        end
      end
      bundles.uniq { |b| [b.shares.map(&:id), b.percent] }.select { |b| safe { step.can_sell?(entity, b) } }
             .map { |b| bundle_action(entity, b, A::SellShares) }
    end

    def safe
      yield
    rescue StandardError
      false
    end

    def pars(entity, step)
      @game.corporations.flat_map do |corp|
        next [] unless @game.can_par?(corp, entity)
        # 18xx.games lets a corporation start with no city left for its home token, and then
        # waits forever for that token: no player would.
        next [] if !@game.historical?(corp) && !home_city?(corp)
        # Nor one that has no token left for its home (IRSFF after the split, in 18xx.games).
        next [] if @game.historical?(corp) && corp.tokens.none? { |t| !t.used }
        next [] unless safe { step.can_buy?(entity, corp.shares.first&.to_bundle) }

        step.get_par_prices(entity, corp).map { |sp| A::Par.new(entity, corporation: corp, share_price: sp) }
      end
    end

    def home_city?(corp)
      token = corp.tokens.first
      safe do
        @game.home_token_locations(corp).any? do |hex|
          hex.tile.cities.any? { |c| c.tokenable?(corp, free: true, tokens: [token]) }
        end
      end
    end

    def buy_companies(entity, step)
      list = []
      list.concat(step.purchasable_companies(entity)) if step.respond_to?(:purchasable_companies)
      list.concat(step.buyable_bank_owned_companies(entity)) if step.respond_to?(:buyable_bank_owned_companies)
      list.uniq.map do |company|
        price = company.owner&.player? ? [1 + @rng.rand([entity.cash, company.value].min), 1].max : company.value
        A::BuyCompany.new(entity, company: company, price: price)
      end
    end

    def available_hexes(entity, step)
      @game.hexes.select { |hex| safe { step.available_hex(entity, hex) } }
    end

    def place_tokens(entity, step)
      tokens = step.available_tokens(entity)
      token = tokens.first
      return [] unless token

      available_hexes(entity, step).flat_map do |hex|
        hex.tile.cities.flat_map do |city|
          next [] unless safe { city.tokenable?(token.corporation, tokens: tokens, free: true) }
          next [] if step.is_a?(Engine::Step::Token) && !safe { step.check_connected(entity, city, hex); true }

          [A::PlaceToken.new(entity, city: city, slot: city.get_slot(token.corporation))]
        end
      end
    end

    def lay_tiles(entity, step)
      later = step.respond_to?(:unused_railheads)
      edges = later ? railhead_edges(entity, step) : nil
      available_hexes(entity, step).flat_map do |hex|
        next [] if hex.tile.upgrades.sum(&:cost) > entity.cash

        old_exits = hex.tile.exits
        step.upgradeable_tiles(entity, hex).flat_map do |tile|
          tile.legal_rotations.filter_map do |r|
            if later
              # A tile must grow from a base (for a major's further lay, one not used yet by
              # this turn's lays); 1841's track step checks this only after laying the tile.
              tile.rotate!(r)
              fresh = tile.exits - old_exits
              next if !fresh.empty? && (fresh & (edges[hex] || [])).empty?
            end
            A::LayTile.new(entity, tile: tile, hex: hex, rotation: r)
          end
        end
      end
    end

    def railhead_edges(entity, step)
      graph = @game.graph_for_entity(entity)
      out = Hash.new { |h, k| h[k] = [] }
      step.unused_railheads(entity).each do |t|
        graph.connected_hexes_by_token(entity, t.city).each { |hex, e| out[hex] |= Array(e) }
      end
      out
    end

    def run_routes(entity)
      router = Engine::AutoRouter.new(@game)
      trains = @game.route_trains(entity).sort_by(&:price).reverse
      train_routes, = router.path(trains, entity, path_timeout: 6, route_timeout: 6)
      chosen = []
      trains.each do |train|
        (train_routes[train] || []).sort_by { |r| -r.revenue }.each do |route|
          trial = chosen + [route]
          next if router.real_revenue(trial).negative?

          chosen = trial
          break
        end
      end
      chosen.each { |r| r.routes = chosen }
      [A::RunRoutes.new(entity, routes: chosen)]
    end

    def buy_trains(entity, step)
      trains = step.buyable_trains(entity)
      trains.flat_map do |train|
        variants = train.variants.values.map { |v| v[:name] }
        variants = [train.name] if variants.empty?
        variants.map do |variant|
          if train.owner == @game.depot || train.from_depot?
            price = train.variants[variant] ? train.variants[variant][:price] : train.price
            # Beyond its cash only as an emergency purchase of the cheapest train.
            next if price > entity.cash && !(step.must_buy_train?(entity) && price <= @game.depot.min_depot_price)
            next if price > entity.cash && !Array(safe { step.issuable_shares(entity) }).empty?

            A::BuyTrain.new(entity, train: train, price: price, variant: variant)
          else
            min, max = step.spend_minmax(entity, train)
            max = [max, entity.cash].min
            next if max < min

            A::BuyTrain.new(entity, train: train, price: min + @rng.rand(max - min + 1), variant: variant)
          end
        end.compact
      end
    end

    def choices(entity, step)
      c = step.respond_to?(:choices) ? step.choices : {}
      c = step.choices_ability(entity) if c.nil? && step.respond_to?(:choices_ability)
      keys = c.is_a?(Hash) ? c.keys : Array(c)
      keys.map { |k| A::Choose.new(entity, choice: k.to_s) }
    end

    def remove_tokens(entity, step)
      @game.hexes.select { |hex| step.available_hex(entity, hex) }.flat_map do |hex|
        hex.tile.cities.flat_map do |city|
          city.tokens.each_with_index.filter_map do |t, slot|
            next unless t && step.can_replace_token?(entity, t)

            A::RemoveToken.new(entity, city: city, slot: slot)
          end
        end
      end
    end

    def buy_tokens(entity, step)
      max = step.max_price(entity)
      @game.hexes.select { |hex| safe { step.available_hex(entity, hex) } }.flat_map do |hex|
        hex.tile.cities.flat_map do |city|
          city.tokens.each_with_index.filter_map do |t, slot|
            next unless t && safe { step.can_replace_token?(entity, t) }

            A::BuyToken.new(entity, city: city, slot: slot, price: 1 + @rng.rand([max, entity.cash, 60].min))
          end
        end
      end
    end

    def export
      g = @game
      {
        'id' => @seed,
        'description' => "oracle_random #{@mode} #{@names.size}p seed #{@seed}",
        'user' => { 'id' => 0, 'name' => 'You' },
        'players' => @names.map { |id, name| { 'id' => id, 'name' => name } },
        'min_players' => 3,
        'max_players' => 8,
        'title' => '1841',
        'settings' => {
          'seed' => @seed, 'is_async' => true, 'unlisted' => true, 'auto_routing' => true,
          'player_order' => nil, 'optional_rules' => @rules
        },
        'user_settings' => nil,
        'status' => g.finished ? 'finished' : 'active',
        'turn' => g.turn,
        'round' => g.round&.name,
        'acting' => g.finished ? [] : g.active_players.map(&:id),
        'result' => g.finished ? g.result.transform_keys(&:to_s) : {},
        'actions' => @accepted,
        'loaded' => true,
        'created_at' => 0,
        'updated_at' => 0,
        'finished_at' => nil,
        'game_end_reason' => g.finished ? g.game_end_reason.to_s : nil,
      }
    end
  end

  module_function

  def main(argv)
    mode = 'v2'
    players = 0
    seed = 1
    games = 1
    out = '.'
    max_actions = 3000
    quiet = false
    until argv.empty?
      case (a = argv.shift)
      when '--mode' then mode = argv.shift
      when '--players' then players = Integer(argv.shift)
      when '--seed' then seed = Integer(argv.shift)
      when '--games' then games = Integer(argv.shift)
      when '--out' then out = argv.shift
      when '--max-actions' then max_actions = Integer(argv.shift)
      when '--quiet' then quiet = true
      else abort "oracle_random: unknown argument #{a}"
      end
    end
    abort "oracle_random: unknown mode #{mode} (#{MODES.keys.join(', ')})" unless MODES.key?(mode)
    FileUtils.mkdir_p(out)
    counts = MODES[mode][1]
    status = 0
    games.times do |k|
      s = seed + k
      n = players.zero? ? counts[(s - 1) % counts.size] : players
      path = File.join(out, "#{mode}-#{n}p-s#{s}.json")
      t0 = Time.now
      begin
        p = Player.new(mode, n, s, max_actions: max_actions)
        g = p.play
        File.write(path, JSON.generate(p.export))
        unless quiet
          puts JSON.generate('file' => path, 'mode' => mode, 'players' => n, 'seed' => s,
                             'finished' => g.finished, 'end' => g.finished ? g.game_end_reason : nil,
                             'stuck' => p.stuck, 'actions' => p.accepted.size, 'phase' => g.phase.name, 'turn' => g.turn,
                             'refused' => p.refused, 'load_mismatches' => p.load_mismatches, 'why' => ENV['ORACLE_RANDOM_DEBUG'] ? p.refusals : nil, 'seconds' => (Time.now - t0).round(1))
        end
      rescue StandardError => e
        status = 1
        puts JSON.generate('file' => path, 'mode' => mode, 'players' => n, 'seed' => s,
                           'error' => "#{e.class}: #{e.message}", 'where' => e.backtrace&.first(3))
        File.write(path, JSON.generate(p.export)) if p
      end
    end
    warn JSON.generate(TIMES.transform_values { |v| v.round(2) }) if ENV['ORACLE_RANDOM_DEBUG']
    status
  end
end

exit(OracleRandom.main(ARGV.dup)) if $PROGRAM_NAME == __FILE__
