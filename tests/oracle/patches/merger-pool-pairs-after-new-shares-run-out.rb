# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `merger-pool-pairs-after-new-shares-run-out`.
#
# Rule: 1841 §12.1 (a merger of majors: each pair of old shares becomes one new share; once the
# new 10% shares run out, further pairs are paid out at the new share price; the pool's odd share
# is discarded).
#
# 18xx.games crashes. G1841::Game#merger_do_exchange (g_1841/game.rb:1422) exchanges a holder's
# pairs; when the new corporation has no 10% share left and the holder no new share to trade for
# the president's certificate, it pays the pair out with `@bank.spend(price, entity)`
# (g_1841/game.rb:1464-1466). For the share pool as `entity` (the pool's pairs come after the
# players and their corporations) Spender#spend (spender.rb:17-18) asks the receiver for its
# `spender`, which Engine::SharePool lacks: "undefined method `spender' for
# <Engine::SharePool>", and the game cannot go on. (The pool's odd share is discarded without a
# payment, g_1841/game.rb:1506-1512.)
#
# What this patch changes: in that one call, the pool's pair payout, the bank pays nothing (the
# pool is the bank's; Referee's operating_round::events::merger::execute pays nothing either):
# the two old shares leave the game as 18xx.games already moved them, the log line stays. The
# call is recognised by the holder being exchanged (merger_do_exchange with the share pool first
# in @merger_sh_list, up to the next holder's merger_next_exchange), the receiver (the share
# pool) and the amount (the new corporation's price). Every other payment is 18xx.games' own.
# Recorded as a correction at each such pair (18xx.games would have raised there).

module OraclePatchMergerPoolPairsAfterNewSharesRunOut
  ID = 'merger-pool-pairs-after-new-shares-run-out'

  module Game
    def merger_do_exchange(answer)
      saved = @bank.oracle_patch_pool_pair
      @bank.oracle_patch_pool_pair =
        if @merger_sh_list.first == @share_pool
          { pool: @share_pool, price: @merger_target.share_price.price,
            what: "#{@merger_corpa.name}/#{@merger_corpb.name} into #{@merger_target.name}" }
        end
      super
    ensure
      @bank.oracle_patch_pool_pair = saved
    end

    # The next holder's exchange (called from inside the pool's merger_do_exchange): no longer the
    # pool's pairs.
    def merger_next_exchange
      saved = @bank.oracle_patch_pool_pair
      @bank.oracle_patch_pool_pair = nil
      super
    ensure
      @bank.oracle_patch_pool_pair = saved
    end
  end

  module Bank
    attr_accessor :oracle_patch_pool_pair

    def spend(cash, receiver, **kwargs)
      pair = @oracle_patch_pool_pair
      return super unless pair && receiver.equal?(pair[:pool]) && cash == pair[:price]

      OraclePatches.record(ID, "merger #{pair[:what]}: the share pool's pair of old shares is paid nothing " \
                               "where 18xx.games' bank.spend(L.#{cash}, share pool) raises")
      nil
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchMergerPoolPairsAfterNewSharesRunOut::Game)
Engine::Bank.prepend(OraclePatchMergerPoolPairsAfterNewSharesRunOut::Bank)
OraclePatches.loaded!(OraclePatchMergerPoolPairsAfterNewSharesRunOut::ID)
