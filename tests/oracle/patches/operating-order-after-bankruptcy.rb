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
# else. Recorded as a correction when the re-sort changed the order of the corporations still to
# operate.

module OraclePatchOperatingOrderAfterBankruptcy
  ID = 'operating-order-after-bankruptcy'

  def process_bankrupt(action)
    super
    return unless @round.respond_to?(:recalculate_order)

    index = @round.entity_index
    before = @round.entities[(index + 1)..] || []
    @round.recalculate_order
    after = @round.entities[(index + 1)..] || []
    return if after == before

    OraclePatches.record(ID,
                         "operating order after the bankruptcy: #{after.map(&:name).join(', ')} " \
                         "(18xx.games kept #{before.map(&:name).join(', ')})")
  end
end

Engine::Game::G1841::Step::Bankrupt.prepend(OraclePatchOperatingOrderAfterBankruptcy)
OraclePatches.loaded!(OraclePatchOperatingOrderAfterBankruptcy::ID)
