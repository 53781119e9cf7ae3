# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `transform-token-president-pays-first`.
#
# Rule: 1841 §12.2 (the compulsory second token's L.50 after a transformation: emergency money
# raising allowed), §14 (the corporation sells first, then its president pays; a bankrupt
# president's corporation "receives the token without paying"), FAQ-Q5 ("it sells, at half price,
# shares it owns or shares from its IPO. If that is not enough, the president must pay the rest").
#
# 18xx.games, when the major cannot pay the L.50 (`Game#transform_tokens` sets
# `token_emr_entity`), asks its blocking BuyNewTokens step for the count first, which sweeps the
# missing money from the chain of control, the president included (`sweep_cash`), before any
# sale; its TokenEmergencyMoney step comes after it. What this changes, only while a
# transformation's count waits for the emergency of that same major (`token_emr_entity` is the
# pending buyer):
# - BuyNewTokens is inactive and TokenEmergencyMoney blocks, so the raisers sell first (18xx's own
#   TokenEmergencyMoney#process_sell_shares: other corporations' certificates before IPO shares,
#   only as needed, each sale's proceeds swept into the major at once); 18xx's step clears the
#   emergency itself once the cash before selling covers the L.50, and the count (`choose`, the
#   single choice 1) then sweeps what is left short from the chain, the president last — what
#   Referee does (operating_round::events::transform, stage TOKEN_EMERGENCY);
# - a bankruptcy for the token (G1841::Step::Bankrupt, token case) leaves the major its cash
#   (18xx spends it to the bank; §14: it receives the token without paying) and closes the count
#   18xx left pending (it calls `transform_finish` itself, so the count's record never comes).
# Nothing else: a major that can pay, a count with optional tokens, a start's or a split's token
# purchase are 18xx's own code. Recorded as a correction at each sale the unpatched engine would
# have refused (its BuyNewTokens was blocking) and at a token bankruptcy whose treasury or
# pending count the patch kept.

module OraclePatchTransformToken
  ID = 'transform-token-president-pays-first'

  # Whether the count of a transformation waits for the emergency of its own major.
  def self.emergency_first?(round)
    return false unless round.respond_to?(:token_emr_entity) && round.respond_to?(:buy_tokens)

    major = round.token_emr_entity
    pending = round.buy_tokens&.first
    !major.nil? && !pending.nil? && pending[:type] == :transform && pending[:entity] == major
  end

  module BuyNewTokens
    def active?
      return false if OraclePatchTransformToken.emergency_first?(@round)

      super
    end

    def actions(entity)
      return [] if OraclePatchTransformToken.emergency_first?(@round)

      super
    end
  end

  module TokenEmergencyMoney
    def blocking?
      return true if OraclePatchTransformToken.emergency_first?(@round)

      super
    end

    def process_sell_shares(action)
      first = OraclePatchTransformToken.emergency_first?(@round)
      major = @round.token_emr_entity
      seller = action.bundle.owner
      super
      return unless first

      OraclePatches.record(ID,
                           "#{seller.name} sells #{action.bundle.percent}% of " \
                           "#{action.bundle.corporation.name} for #{major.name}'s second token before its count " \
                           "(18xx.games asks the count first)")
    end
  end

  module Bankrupt
    def process_bankrupt(action)
      major = @round.respond_to?(:token_emr_entity) ? @round.token_emr_entity : nil
      return super unless major

      pending = @round.buy_tokens&.first
      corp = action.entity # the corporation G1841's step pays out and gives the token to
      @game.oracle_patch_token_bankrupt = corp
      begin
        super
      ensure
        @game.oracle_patch_token_bankrupt = nil
      end
      kept = @game.oracle_patch_token_cash.to_i
      if kept.positive?
        @game.bank.spend(kept, corp)
        OraclePatches.record(ID,
                             "#{corp.name} keeps its #{@game.format_currency(kept)} after the bankruptcy " \
                             'for its second token (18xx.games pays it to the bank)')
      end
      return unless pending && pending[:type] == :transform && pending[:entity] == major
      return unless @round.buy_tokens.first.equal?(pending)

      @round.buy_tokens.shift
      @round.clear_cache!
      OraclePatches.record(ID,
                           "#{major.name}'s token count is closed by the bankruptcy (18xx.games still asks it)")
    end
  end

  module Game
    attr_accessor :oracle_patch_token_bankrupt
    attr_reader :oracle_patch_token_cash

    # G1841::Step::Bankrupt declares the bankruptcy right before it pays the major's treasury to
    # the bank in the token case: what the major holds then is what 18xx.games takes.
    def declare_bankrupt(player, option = 0)
      @oracle_patch_token_cash = @oracle_patch_token_bankrupt&.cash
      super
    end
  end
end

Engine::Game::G1841::Step::BuyNewTokens.prepend(OraclePatchTransformToken::BuyNewTokens)
Engine::Game::G1841::Step::TokenEmergencyMoney.prepend(OraclePatchTransformToken::TokenEmergencyMoney)
Engine::Game::G1841::Step::Bankrupt.prepend(OraclePatchTransformToken::Bankrupt)
Engine::Game::G1841::Game.prepend(OraclePatchTransformToken::Game)
OraclePatches.loaded!(OraclePatchTransformToken::ID)
