# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# bash completion for bpfld, bpfkeys, bpfkeyctl and bpfkeyctl-stock,
# installed under each command's name in bash-completion's completions
# directory. Self-contained: uses compgen only, no bash-completion helpers.

_bpfsk_files() # complete $cur as file names (objects first: *.o)
{
	local IFS=$'\n'
	COMPREPLY+=($(compgen -f -- "$1"))
}

_bpfld()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	case $prev in
	-o | --output) _bpfsk_files "$cur"; return ;;
	esac
	case $cur in
	-*) COMPREPLY=($(compgen -W '-o --output -v --verbose -h --help -V --version' -- "$cur")) ;;
	*) _bpfsk_files "$cur" ;;
	esac
}

_bpfkeys()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W 'resolve lower list gen --help --version' -- "$cur"))
		return
	fi
	if [ "${COMP_WORDS[1]}" = gen ]; then
		if [ "$COMP_CWORD" -eq 2 ]; then
			COMPREPLY=($(compgen -W 'skeleton' -- "$cur"))
		elif [ "$COMP_CWORD" -eq 3 ]; then
			_bpfsk_files "$cur"
		fi
		return
	fi
	case $prev in
	-o | --output) _bpfsk_files "$cur"; return ;;
	--set) return ;; # KEY=on|off: the keys are the object's
	esac
	case ${COMP_WORDS[1]} in
	resolve) [[ $cur == -* ]] && COMPREPLY=($(compgen -W '-o --output' -- "$cur")) ;;
	lower) [[ $cur == -* ]] && COMPREPLY=($(compgen -W '--set -o --output' -- "$cur")) ;;
	list) [[ $cur == -* ]] && COMPREPLY=($(compgen -W '--json' -- "$cur")) ;;
	*) return ;;
	esac
	[[ $cur == -* ]] || _bpfsk_files "$cur"
}

_bpfkeyctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local i cmd= cmds
	COMPREPLY=()
	if [ "${COMP_WORDS[0]##*/}" = bpfkeyctl-stock ]; then
		cmds='load set list --help --version'
	else
		cmds='load run set list jited -v --verbose --help --version'
	fi
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
		return
	fi
	case $prev in
	--kernel) COMPREPLY=($(compgen -W 'patched stock' -- "$cur")); return ;;
	--set | --set-global | --max-entries | --log-level | --repeat | --size | --xdp | --cgroup | --netns) return ;;
	esac
	case $cmd in
	load)
		if [[ $cur == -* ]]; then
			if [ "${COMP_WORDS[0]##*/}" = bpfkeyctl-stock ]; then
				COMPREPLY=($(compgen -W '--set --set-global --max-entries --xdp --cgroup --netns' -- "$cur"))
			else
				# both kernels' load: the stock path takes bpfkeyctl-stock's options
				COMPREPLY=($(compgen -W '--kernel --set --set-global --max-entries --log-level --xdp --cgroup --netns' -- "$cur"))
			fi
			return
		fi
		;;
	run)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--repeat --size' -- "$cur"))
			return
		fi
		;;
	set)
		# PINDIR KEY=on|off...: bash splits KEY=STATE at '=' (COMP_WORDBREAKS),
		# so the state is the word after a '=' word, or after '=' in cur
		if [ "$prev" = = ]; then
			COMPREPLY=($(compgen -W 'on off' -- "$cur"))
			return
		fi
		if [[ $cur == *=* ]]; then
			COMPREPLY=($(compgen -W "${cur%%=*}=on ${cur%%=*}=off" -- "$cur"))
			return
		fi
		if [ $((COMP_CWORD - i)) -ge 2 ]; then
			# the keys of patched-kernel pins: PINDIR/keys/KEY
			if [ -d "${COMP_WORDS[i + 1]}/keys" ]; then
				local IFS=$'\n'
				COMPREPLY=($(cd "${COMP_WORDS[i + 1]}/keys" && compgen -d -S = -- "$cur"))
				compopt -o nospace 2> /dev/null || true # fails outside a completion (complete.sh)
			fi
			return
		fi
		;;
	list)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--json' -- "$cur"))
			return
		fi
		;;
	esac
	_bpfsk_files "$cur"
}

complete -F _bpfld bpfld
complete -F _bpfkeys bpfkeys
complete -F _bpfkeyctl bpfkeyctl bpfkeyctl-stock
