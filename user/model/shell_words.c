// SPDX-License-Identifier: GPL-2.0
/* The one shell tokenizer (include/model/shell_words.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/name_text.h"
#include "model/shell_words.h"

/* Words that start shell syntax a name does not follow. */
static const char *const compound_words[] = {
	"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done",
	"case", "esac", "function", "{", "}", "!", "[[", "select",
};

/*
 * The SHELL_SPLIT_COMMAND word at p: where it ends, its text unquoted into
 * out when out is not NULL (*len bytes, not terminated).  NULL for a word
 * with an expansion or an unbalanced quote.
 */
static const char *command_word(const char *p, char *out, size_t *len)
{
	size_t o = 0;

	while (*p && !strchr(SHELL_BREAKS, *p)) {
		if (*p == '$' || *p == '`')
			return NULL;
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end)
				return NULL;
			if (out)
				memcpy(out + o, p + 1, end - p - 1);
			o += end - p - 1;
			p = end + 1;
		} else if (*p == '"') {
			for (p++; *p != '"'; p++) {
				if (!*p || *p == '$' || *p == '`')
					return NULL;
				/* Inside double quotes a backslash quotes only these. */
				if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
					p++;
				if (out)
					out[o] = *p;
				o++;
			}
			p++;
		} else if (*p == '\\') {
			if (!p[1])
				return NULL;
			/* A backslash before a newline joins two lines. */
			if (p[1] != '\n') {
				if (out)
					out[o] = p[1];
				o++;
			}
			p += 2;
		} else {
			if (out)
				out[o] = *p;
			o++;
			p++;
		}
	}
	if (len)
		*len = o;
	return p;
}

const char *shell_word_end(const char *s, enum shell_split how)
{
	if (how == SHELL_SPLIT_NAMES)
		return s + strcspn(s, SHELL_BREAKS "'\"`$,=:{}");
	return command_word(s, NULL, NULL);
}

int shell_word(const char **s, char **word)
{
	char *out = malloc(strlen(*s) + 1);
	const char *end;
	size_t len;

	*word = NULL;
	if (!out)
		return -ENOMEM;
	end = command_word(*s, out, &len);
	if (!end) {
		free(out);
		return -EINVAL;
	}
	out[len] = '\0';
	*s = end;
	*word = out;
	return 0;
}

size_t shell_assignment_len(const char *w, size_t len)
{
	size_t i = 0;

	if (!len || !((w[0] >= 'A' && w[0] <= 'Z') || (w[0] >= 'a' && w[0] <= 'z') || w[0] == '_'))
		return 0;
	while (i < len && ((w[i] >= 'A' && w[i] <= 'Z') || (w[i] >= 'a' && w[i] <= 'z') || (w[i] >= '0' && w[i] <= '9') ||
			   w[i] == '_'))
		i++;
	return i < len && w[i] == '=' ? i + 1 : 0;
}

bool shell_is_assignment(const char *word)
{
	return shell_assignment_len(word, strlen(word)) > 0;
}

static void shell_cmd__clear(struct shell_cmd *cmd)
{
	size_t i;

	for (i = 0; i < cmd->nr; i++)
		free(cmd->words[i]);
	cmd->nr = 0;
}

void shell_cmd__free(struct shell_cmd *cmd)
{
	shell_cmd__clear(cmd);
	free(cmd->words);
	cmd->words = NULL;
	cmd->cap = 0;
}

/* Appends word (malloc'd, owned from here on) to cmd.  0 or -ENOMEM. */
static int add_word(struct shell_cmd *cmd, char *word)
{
	if (cmd->nr + 2 > cmd->cap) {
		size_t cap = cmd->cap ? 2 * cmd->cap : 8;
		char **words = realloc(cmd->words, cap * sizeof(*words));

		if (!words) {
			free(word);
			return -ENOMEM;
		}
		cmd->words = words;
		cmd->cap = cap;
	}
	cmd->words[cmd->nr++] = word;
	cmd->words[cmd->nr] = NULL;
	return 0;
}

/* Skips the redirection at *p ("> f", "2>&1", "<f"), its target no word of the command.  0, -EINVAL, -ENOMEM. */
static int skip_redirection(const char **p)
{
	char *target = NULL;
	int err;

	if (**p != '<' && **p != '>')
		(*p)++; /* the descriptor's digit */
	if ((*p)[0] == '<' && (*p)[1] == '<')
		return -EINVAL; /* a here-document */
	*p += 1 + ((*p)[1] == '>' || (*p)[1] == '&');
	*p += strspn(*p, " \t");
	err = shell_word(p, &target);
	free(target);
	return err;
}

int shell_next_command(const char **s, struct shell_cmd *cmd)
{
	const char *p = *s;
	int err = 0;

	shell_cmd__clear(cmd);
	for (;;) {
		char *word = NULL;

		p += strspn(p, " \t");
		if (!*p || strchr("\n;&|", *p)) {
			if (*p)
				p += 1 + (strchr("&|", *p) && p[1] == *p);
			if (*p && !cmd->nr)
				continue;
			break;
		}
		if (*p == '#' && !cmd->nr) {
			p += strcspn(p, "\n");
			continue;
		}
		if (*p == '(' || *p == ')')
			return -EINVAL;
		if (*p == '<' || *p == '>' || ((*p >= '0' && *p <= '9') && (p[1] == '>' || p[1] == '<'))) {
			err = skip_redirection(&p);
			if (err)
				return err;
			continue;
		}
		err = shell_word(&p, &word);
		if (err)
			return err;
		if (!cmd->nr && (shell_is_assignment(word) || !strcmp(word, "exec"))) {
			free(word);
			continue;
		}
		if (!cmd->nr && NAME_IN_LIST(word, compound_words)) {
			free(word);
			return -EINVAL;
		}
		err = add_word(cmd, word);
		if (err)
			return err;
	}
	*s = p;
	return cmd->nr ? 1 : 0;
}
