# frozen_string_literal: true

# Shared by the oracle patches (tests/oracle/patches/*.rb, loaded by tests/oracle/patched_oracle.rb
# on top of the unmodified 18xx.games engine): the record of where a patch changed what
# 18xx.games would have done in the game being replayed.
#
# A patch calls `OraclePatches.record(ID, DETAIL)` only when its corrected branch
# actually behaved differently from 18xx.games' own code (an action the unpatched engine would
# have refused, a count or an order that came out different); the driver adds the records of
# each game to its JSON line as `corrections`, and scripts/oracle_harness.py reports a game that
# agrees only thanks to them as "same result with listed corrections".

module OraclePatches
  @corrections = []
  @loaded = []

  class << self
    attr_reader :corrections, :loaded
    attr_accessor :action_id

    def reset!
      @corrections = []
      @action_id = nil
    end

    # The patch `id` (its entry of tests/oracle/divergences.json) changed 18xx.games' behaviour
    # at the action being processed (`action_id`: the file's id of the top-level action).
    def record(id, detail)
      entry = { 'id' => id, 'action_id' => @action_id, 'detail' => detail }
      return if @corrections.include?(entry)

      @corrections << entry
      warn "oracle patch #{id} at action #{@action_id}: #{detail}" if ENV['REFEREE_ORACLE_PATCH_LOG']
    end

    def loaded!(id)
      @loaded << id unless @loaded.include?(id)
    end
  end
end

# The file's id of each top-level action (a Hash, as the oracle driver passes them; the engine
# renumbers the Action objects it builds).
module OraclePatchesActionId
  def process_action(action, **kwargs)
    OraclePatches.action_id = action['id'] if action.is_a?(Hash) && kwargs.empty?
    super
  end
end
Engine::Game::G1841::Game.prepend(OraclePatchesActionId)
