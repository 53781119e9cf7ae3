# frozen_string_literal: true

# The 18xx.games oracle with the project's corrections: loads the unmodified oracle driver
# (`oracle.rb` of REFEREE_ORACLE_18XX, default ../shared/oracle-18xx beside the repository) and
# its engine, then the patches of tests/oracle/patches/ (small monkey-patches, one per entry of
# tests/oracle/divergences.json where 18xx.games is wrong by the rulebook or the FAQ; each file
# names its entry and the rule), and replays games exactly as `oracle.rb` does, except that
# every `run_routes` is traced again and must pay what it records (strict_routes.rb).
#
#   ruby tests/oracle/patched_oracle.rb [--patch FILE]... [--no-patches] [oracle.rb options] FILE...
#   ruby tests/oracle/patched_oracle.rb [--patch FILE]... --serve
#
# Options as oracle.rb's (--every, --at ID, --no-snapshots, --serve). `--patch FILE` loads that
# patch only (repeatable); without it, every patch of tests/oracle/patches/ is loaded (files
# whose name starts with `_` are support, not patches). `--no-patches` loads none (the output
# is then oracle.rb's, with an empty `corrections`).
#
# Output: oracle.rb's JSON line per file, plus `patches` (the ids of the patches loaded) and
# `corrections`: [{id, action_id, detail}], each a point of that game where a patch changed what
# 18xx.games would have done (an empty list when the unpatched engine would have done the
# same; see _support.rb).

ORACLE_DIR = File.expand_path(
  ENV['REFEREE_ORACLE_18XX'] || File.join(__dir__, '..', '..', '..', 'shared', 'oracle-18xx')
)
unless File.file?(File.join(ORACLE_DIR, 'oracle.rb'))
  warn "patched_oracle: no oracle.rb at #{ORACLE_DIR} (set REFEREE_ORACLE_18XX)"
  exit 2
end

args = ARGV.dup
patches = []
while (i = args.index('--patch'))
  patches << File.expand_path(args[i + 1].to_s)
  args.slice!(i, 2)
end
no_patches = !args.delete('--no-patches').nil?
patch_dir = File.join(__dir__, 'patches')
if patches.empty? && !no_patches
  patches = Dir[File.join(patch_dir, '*.rb')].reject { |f| File.basename(f).start_with?('_') }.sort
end
patches = [] if no_patches

# oracle.rb sets up the engine's load path and defines Oracle.replay; its command line runs only
# when it is the program itself.
require File.join(ORACLE_DIR, 'oracle.rb')
require File.join(patch_dir, '_support.rb')
# Every run_routes traced again and paid as recorded (the harness's net for 1841 §9.3).
require File.join(__dir__, 'strict_routes.rb')
patches.each do |p|
  raise "patched_oracle: no patch #{p}" unless File.file?(p)

  require p
end

module PatchedOracle
  module_function

  def replay(path, **kwargs)
    OraclePatches.reset!
    out = Oracle.replay(path, **kwargs)
    out.merge('patches' => OraclePatches.loaded.dup, 'corrections' => OraclePatches.corrections.dup)
  end
end

snapshots = !args.delete('--no-snapshots')
every = !args.delete('--every').nil?
at = nil
if (i = args.index('--at'))
  at = args[i + 1].to_i
  args.slice!(i, 2)
end
$stdout.sync = true
if args.first == '--serve'
  $stdin.each_line do |line|
    path = line.strip
    puts JSON.generate(PatchedOracle.replay(path, snapshots: snapshots, every: every)) unless path.empty?
  end
else
  args.each { |f| puts JSON.generate(PatchedOracle.replay(f, snapshots: snapshots, every: every, at: at)) }
end
