# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `v1-split-unexchanged-irsff-shares-stay`.
#
# Rule: 1841 §12.4 (IRSFF is dissolved into SFV and SFL and closed), FAQ-R3 {4.6.8} (holders
# who cannot exchange their IRSFF shares because both successors are sold out are paid the
# market value; Referee's option `ferdinandea_unexchanged_payout`, off in the harness's
# Version 1 modes as 18xx.games has no payout: the shares are then lost), §3.4 (a closed
# corporation is gone). It happens only in Version 1, whose minor successors have three
# ordinary shares each.
#
# 18xx.games' Game#secession_next_exchange goes to the share offers (`secession_offer_start`)
# as soon as both successors are sold out, and IRSFF, historical, is closed with `close!`
# (restart_corporation!), which leaves its certificates where they are: the holders not reached
# keep IRSFF shares of a closed corporation for the rest of the game (the pool, a corporation's
# treasury, a player's hand, where they still count for the certificate limit). What this
# changes: when the share offers start, every IRSFF share held outside IRSFF goes back to IRSFF
# (lost, as Referee loses it without the payout option). Recorded as a correction when a share
# moved.

module OraclePatchV1SplitUnexchangedShares
  ID = 'v1-split-unexchanged-irsff-shares-stay'

  module Game
    def secession_offer_start
      old = @secession_old
      holders = (@players + @corporations + [@share_pool]).reject { |h| h == old }
      moved = holders.flat_map do |h|
        h.shares_of(old).dup.map do |share|
          simple_transfer_share(share, old)
          "#{h.name} #{share.id}"
        end
      end
      unless moved.empty?
        OraclePatches.record(ID, "#{old.name} shares not exchanged (both successors sold out) " \
                                 "lost: #{moved.join(', ')} (18xx.games leaves them with their holders)")
      end
      super
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchV1SplitUnexchangedShares::Game)
OraclePatches.loaded!(OraclePatchV1SplitUnexchangedShares::ID)
