# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `p2p-partial-president-certificate-limit`.
#
# Rule: 1841 §15.3 / rules doc §5.2 (`p2p_purchases`: a player may buy certificates from
# another player, subject to the same limits; a partial president's bundle is possible when
# someone can take the presidency), §7.3 (a player may control at most 60% of a corporation).
#
# 18xx.games' player-to-player purchase (`G1841::Step::BuySellParShares#process_buy_shares`)
# checks `flexible_can_buy_shares?(entity, bundle.shares, price)`, which builds
# `ShareBundle.new(shares)`, and `can_gain?` adds `bundle.common_percent`, the sum of the
# certificates' percents: the whole certificates, not the bundle's percent. A purchase of
# part of a president's certificate (e.g. 20% of a minor's 40% certificate) is judged as if the
# buyer took the whole certificate, and refused ('Cannot purchase these shares') when the whole
# one would put him over 60%, though the part keeps him within it. What this changes: the
# 60% and certificate-limit test (`can_gain?`) of a player-to-player purchase is made with the
# action's bundle's percent (the certificate limit as `can_gain?` has it). Nothing else. Recorded as a correction when the whole
# certificates would have been refused and the bundle is not.

module OraclePatchP2pPartialPresidentCertificateLimit
  ID = 'p2p-partial-president-certificate-limit'

  module Step
    def process_buy_shares(action)
      @oracle_patch_p2p_bundle = action.bundle if action.bundle.owner.player?
      super
    ensure
      @oracle_patch_p2p_bundle = nil
    end

    def flexible_can_buy_shares?(entity, shares, price)
      bundle = @oracle_patch_p2p_bundle
      whole = super
      return whole if whole || !bundle || bundle.shares != shares || !bundle.partial?

      return false if shares.empty? || entity.cash < price || bought?
      return false if @round.players_sold[entity][shares[0].corporation]

      pres = shares.find(&:president)
      return false if pres && !@game.pres_change_ok?(pres.corporation)
      corporation = bundle.corporation
      return false unless @game.num_certs(entity) < @game.cert_limit(entity)
      return false unless @game.player_controlled_percentage(entity, corporation) + bundle.percent <=
                          corporation.max_ownership_percent

      OraclePatches.record(ID, "#{entity.name} buys #{bundle.percent}% of #{bundle.corporation.name}'s " \
                               "#{shares.sum(&:percent)}% certificate (18xx.games judges the whole certificate)")
      true
    end
  end
end

Engine::Game::G1841::Step::BuySellParShares.prepend(OraclePatchP2pPartialPresidentCertificateLimit::Step)
OraclePatches.loaded!(OraclePatchP2pPartialPresidentCertificateLimit::ID)
