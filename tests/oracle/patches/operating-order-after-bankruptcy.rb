# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `operating-order-after-bankruptcy`.
#
# Rule: FAQ-Q13 (share sales during an operating round can change the order in which the
# remaining corporations operate), 1841 §8 (operating order: market order), §14 (a bankrupt
# president's sales drop prices normally).
#
# 18xx.games re-sorts the corporations still to operate after every other sale of an operating
# round (`@round.recalculate_order`), and its base `Engine::Step::Bankrupt#process_bankrupt`
# does so after the bankrupt's sales; `G1841::Step::Bankrupt#process_bankrupt` overrides it
# without that call. What this changes: after G1841's own bankruptcy (unchanged otherwise), the
# remainder of the operating round is re-sorted by market order, as the base step does. Nothing
# else. Recorded as a correction when a corporation then starts operating where 18xx.games' own
# order would have started another (compared turn by turn until 18xx.games re-sorts by itself; a
# re-sort that changes nothing before the round or the game ends is not recorded).

module OraclePatchOperatingOrderAfterBankruptcy
  ID = 'operating-order-after-bankruptcy'

  module Bankrupt
    def process_bankrupt(action)
      super
      return unless @round.respond_to?(:recalculate_order)

      index = @round.entity_index
      before = @round.entities[(index + 1)..] || []
      @round.recalculate_order
      after = @round.entities[(index + 1)..] || []
      # 18xx.games' own order of the remainder, followed turn by turn (Round below).
      @round.oracle_patch_unpatched_order = after == before ? nil : before.dup
    end
  end

  module Round
    attr_accessor :oracle_patch_unpatched_order

    # 18xx.games re-sorts here by itself (a later sale): from now on both orders agree.
    def recalculate_order
      @oracle_patch_unpatched_order = nil
      super
    end

    def start_operating
      oracle_patch_compare_order
      super
    end

    def oracle_patch_compare_order
      shadow = @oracle_patch_unpatched_order
      entity = @entities[@entity_index]
      return if !shadow || skip_entity?(entity) || !shadow.include?(entity)

      shadow.shift while shadow.first != entity && skip_entity?(shadow.first)
      if shadow.first == entity
        shadow.shift
        @oracle_patch_unpatched_order = nil if shadow.empty?
        return
      end

      OraclePatches.record(ID, "#{entity.name} operates after the bankruptcy's sales where 18xx.games' " \
                               "order has #{shadow.first.name} (remainder #{shadow.map(&:name).join(', ')})")
      @oracle_patch_unpatched_order = nil
    end
  end
end

Engine::Game::G1841::Step::Bankrupt.prepend(OraclePatchOperatingOrderAfterBankruptcy::Bankrupt)
Engine::Game::G1841::Round::Operating.prepend(OraclePatchOperatingOrderAfterBankruptcy::Round)
OraclePatches.loaded!(OraclePatchOperatingOrderAfterBankruptcy::ID)
