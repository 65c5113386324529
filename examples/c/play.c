/*
 * play.c: a whole game through the C library (include/sabacc.h of crates/frontends/kit-c).
 *
 *   play GAME BUNDLE_DIR [SEATS [SEED]]
 *
 * Seat 0 is the bundle's policy (exported with `sabacc export`, choosing in the library); the
 * other seats pick uniformly random legal actions here, in C, after checking that the
 * observation and mask buffers hold what the library reports. Prints the moves, the final
 * table and the outcome. Exit status 0 if the game reached its end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sabacc.h"

/* Stops the program with the library's message when a call fails. */
#define CHECK(call)                                                                      \
    do {                                                                                 \
        int32_t status_ = (call);                                                        \
        if (status_ != SABACC_OK) {                                                      \
            fprintf(stderr, "%s failed (status %d): %s\n", #call, (int)status_,          \
                    sabacc_last_error());                                                \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* A small deterministic generator for the random seats (xorshift64). */
static uint64_t next_random(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s GAME BUNDLE_DIR [SEATS [SEED]]\n", argv[0]);
        return 2;
    }
    const char *game_id = argv[1];
    const char *bundle = argv[2];
    uint32_t seats = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 2;
    uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 42;
    uint64_t random_state = seed * 2654435761u + 1;

    SabaccGame *game = NULL;
    SabaccPolicy *policy = NULL;
    CHECK(sabacc_game_new(game_id, NULL, seats, seed, &game));
    CHECK(sabacc_policy_load(game_id, bundle, NULL, seed, &policy));

    char *about = NULL;
    CHECK(sabacc_policy_describe(policy, &about));
    printf("policy: %s\n", about);
    sabacc_string_free(about);

    size_t obs_len = 0, num_actions = 0;
    CHECK(sabacc_game_sizes(game, &obs_len, &num_actions));
    float *obs = malloc(obs_len * sizeof *obs);
    float *mask = malloc(num_actions * sizeof *mask);
    uint32_t *legal = malloc(num_actions * sizeof *legal);
    if (obs == NULL || mask == NULL || legal == NULL) return 1;

    int32_t actor = 0;
    unsigned moves = 0;
    CHECK(sabacc_game_current_player(game, &actor));
    while (actor >= 0) {
        size_t count = 0;
        CHECK(sabacc_game_legal_actions(game, legal, num_actions, &count));
        /* The policy's inputs, as a network running outside the library would get them. */
        CHECK(sabacc_game_observation(game, (uint32_t)actor, obs, obs_len));
        CHECK(sabacc_game_mask(game, -1, mask, num_actions));
        size_t ones = 0;
        for (size_t a = 0; a < num_actions; a++) ones += mask[a] == 1.0f;
        if (ones != count) {
            fprintf(stderr, "the mask has %zu legal actions, the list %zu\n", ones, count);
            return 1;
        }

        uint32_t action;
        if (actor == 0) {
            CHECK(sabacc_policy_act(policy, game, &action));
        } else {
            action = legal[next_random(&random_state) % count];
        }
        const char *name = NULL;
        CHECK(sabacc_game_action_name(game, action, &name));
        printf("seat %d (%s): %s\n", (int)actor, actor == 0 ? "policy" : "random", name);
        CHECK(sabacc_game_apply(game, action));
        moves++;
        CHECK(sabacc_game_current_player(game, &actor));
    }

    char *table = NULL, *outcome = NULL;
    CHECK(sabacc_game_render(game, -1, &table));
    CHECK(sabacc_game_outcome(game, NULL, &outcome));
    printf("%s\nafter %u moves: %s\n", table, moves, outcome);
    sabacc_string_free(table);
    sabacc_string_free(outcome);

    /* A refusal is a status and a message, never a crash. */
    if (sabacc_game_apply(game, 0) != SABACC_INVALID) return 1;
    printf("a move after the end is refused: %s\n", sabacc_last_error());

    free(obs);
    free(mask);
    free(legal);
    sabacc_policy_free(policy);
    sabacc_game_free(game);
    return 0;
}
