# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `circular-control-never-flagged`.
#
# Rule: FAQ-Q23 (companies that control each other are frozen; in their turn they sell all
# their shares of the company or companies controlling them, at full market value, with the
# usual price drops), 1841 §7.4 (a circular frozen corporation sells, at market, the shares it
# holds of the corporations of its loop).
#
# 18xx.games never flags a corporation as circular: `G1841::Game#update_frozen!` sets
# `circular = corp.ipoed && !controller(corp)`, but `controller` is
# `chain_of_control(corp)&.last || @share_pool`, never nil (a loop ends the chain with nil, and
# the share pool stands in), so `circular?` is always false and `Round::Operating#
# frozen_operation` only moves the price left twice (its sale, behind a misspelled
# `in_cicular_chain?`, is never reached). What this changes: after 18xx.games' own frozen
# operation, a corporation whose chain of control loops now (`chain_of_control` ends with nil)
# sells, per corporation of that chain in chain order, every share it holds of it as one sale
# at the market price (`sell_shares_and_change_price`, the price dropping per share), as FAQ-Q23
# rules and as Referee does (operating_round::frozen_turn). A corporation frozen by a loop that
# has since broken (its president's certificate in the pool now) sells nothing: FAQ-Q23 names
# the companies controlling it (18xx's comment would keep the flag until it is unfrozen).
# Recorded as a correction at every such sale.

module OraclePatchCircularControlNeverFlagged
  ID = 'circular-control-never-flagged'

  module Round
    def frozen_operation(entity)
      super
      chain = @game.chain_of_control(entity)
      return unless chain.last.nil?

      chain.compact.each do |corp|
        next if corp == entity || !corp.corporation?

        shares = entity.shares_of(corp).dup
        next if shares.empty?

        bundle = Engine::ShareBundle.new(shares)
        OraclePatches.record(ID, "#{entity.name} (circular control) sells #{bundle.percent}% of #{corp.name} " \
                                 "at #{corp.share_price&.price} (18xx.games sells nothing)")
        @game.sell_shares_and_change_price(bundle, allow_president_change: true)
      end
      @game.update_frozen!
    end
  end
end

Engine::Game::G1841::Round::Operating.prepend(OraclePatchCircularControlNeverFlagged::Round)
OraclePatches.loaded!(OraclePatchCircularControlNeverFlagged::ID)
