# bash completion for mockgps, installed as share/bash-completion/completions/mockgps.
# The options are those of `mockgps run --help`; Tests/mockgpsTests/CompletionTests.swift keeps
# them (and the bauds) in step with RunOptions.allOptions.

_mockgps() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prev=${COMP_WORDS[COMP_CWORD - 1]}
  local run_options="--link --position --route --scenario --replay --speed --accel --turn-rate
    --loop --once --time --wait-for-client --settle --move-to --drop-invalid --seed
    --passthrough --passthrough-baud --override --offset --control --control-group --no-control
    --profile --almanac --constellations --rate --baud --baud-mismatch --output-delay --base --moving-base --antenna-offset --rtk-convergence --state-dir --group --mode --time-scale --start-time --tcp --udp --gpsd-socket --panel --panel-files --config --shard --verbose --quiet
    --help -v -q -h"
  case $prev in
    --link | --route | --scenario | --replay | --almanac | --control | --gpsd-socket | --config | check)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return
      ;;
    --state-dir)
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
      return
      ;;
    --passthrough)
      mapfile -t COMPREPLY < <(compgen -W "auto" -- "$cur")
      mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
      return
      ;;
    --passthrough-baud)
      mapfile -t COMPREPLY < <(compgen -W "auto 1200 2400 4800 9600 19200 38400 57600 115200
        230400 460800 921600" -- "$cur")
      return
      ;;
    --override)
      mapfile -t COMPREPLY < <(compgen -W "off replace offset route freeze" -- "$cur")
      return
      ;;
    --profile)
      mapfile -t COMPREPLY < <(compgen -W "$(mockgps profiles 2>/dev/null | cut -d ' ' -f 1)" \
        -- "$cur")
      return
      ;;
    --constellations)
      # A comma-separated list: complete the word after the last comma.
      local done=${cur%"${cur##*,}"}
      mapfile -t COMPREPLY < <(compgen -P "$done" -W "gps glonass galileo beidou" \
        -- "${cur##*,}")
      return
      ;;
    --time)
      mapfile -t COMPREPLY < <(compgen -W "original now" -- "$cur")
      return
      ;;
    --baud)
      mapfile -t COMPREPLY < <(compgen -W "0 1200 2400 4800 9600 19200 38400 57600 115200
        230400 460800 921600" -- "$cur")
      return
      ;;
    --rate)
      mapfile -t COMPREPLY < <(compgen -W "0.1 0.2 0.5 1 2 4 5 10 20" -- "$cur")
      return
      ;;
    --group | --control-group)
      mapfile -t COMPREPLY < <(compgen -g -- "$cur")
      return
      ;;
    --mode)
      mapfile -t COMPREPLY < <(compgen -W "0600 0660 0666" -- "$cur")
      return
      ;;
    --position | --time-scale | --start-time | --speed | --accel | --turn-rate | --seed | \
      --settle | --move-to | --offset)
      return
      ;;
  esac
  local subcommand="" word
  for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case $word in
      run | record | devices | check | profiles | ctl | help)
        subcommand=$word
        break
        ;;
    esac
  done
  local candidates
  case $subcommand in
    run) candidates=$run_options ;;
    devices | check | profiles) candidates="--help -h" ;;
    record) candidates="--out --baud --force --help -h" ;;
    ctl) candidates="--control --link --json --help status position velocity fix satellites dop
      pause resume seek scale rate route override inject subscribe" ;;
    help) ((COMP_CWORD == 2)) && candidates="run record check devices profiles" ;;
    *)
      # `run` is the default subcommand: its options may come first.
      if ((COMP_CWORD == 1)); then
        candidates="run record check ctl devices profiles help --version $run_options"
      else
        candidates=$run_options
      fi
      ;;
  esac
  mapfile -t COMPREPLY < <(compgen -W "$candidates" -- "$cur")
}
complete -F _mockgps mockgps
