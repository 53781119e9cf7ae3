# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `token-bankruptcy-token-step-constant`.
#
# Rule: 1841 §14 (a president who cannot raise the money his corporation needs goes bankrupt;
# "the corporation receives the token without paying" when the money was for the compulsory
# second token of a transformation), §12.2 (that token costs L.50, emergency money raising
# allowed), FAQ-Q5.
#
# 18xx.games' G1841::Step::Bankrupt#process_bankrupt, in its token case (`token_emr_entity`
# set: the bankruptcy is declared for the transformation's second token), gives the major its
# token with `corp << Token.new(corp, price: 0)`, which cannot run: inside `module
# Engine::Game::G1841::Step` the constant `Token` is G1841's Token *step*
# (Engine::Game::G1841::Step::Token, "wrong number of arguments (given 1, expected 2)" from
# Step::Base#initialize), and a Corporation has no `<<` (its tokens are `corp.tokens`, as
# everywhere else in G1841::Game: `corp.tokens << Token.new(corp, price: 0)`). So every such
# bankruptcy stops 18xx.games; the comment beside the line ("just give the company a stupid
# token and move on") says what was meant. What this changes, only in that branch: `Token` in
# the step class names Engine::Token, and the major takes the token into `tokens` (a `<<` on
# that one corporation for the length of the call), so it receives the free token as written.
# Recorded as a correction at each token bankruptcy (where 18xx.games would have raised).

module OraclePatchTokenBankruptcyConstant
  ID = 'token-bankruptcy-token-step-constant'

  module Bankrupt
    def process_bankrupt(action)
      token_case = @round.respond_to?(:token_emr_entity) && !@round.token_emr_entity.nil?
      return super unless token_case

      corp = action.entity
      corp.define_singleton_method(:<<) { |token| tokens << token }
      begin
        super
      ensure
        corp.singleton_class.send(:remove_method, :<<)
      end
      OraclePatches.record(ID,
                           "#{corp.name} receives its free token after the bankruptcy " \
                           '(18xx.games raises building it: G1841::Step::Token for Engine::Token)')
    end
  end
end

# Lexical constant lookup finds the innermost scope first: the step class itself.
Engine::Game::G1841::Step::Bankrupt.const_set(:Token, Engine::Token)
Engine::Game::G1841::Step::Bankrupt.prepend(OraclePatchTokenBankruptcyConstant::Bankrupt)
OraclePatches.loaded!(OraclePatchTokenBankruptcyConstant::ID)
