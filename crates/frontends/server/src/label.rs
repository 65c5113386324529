//! Names for people: what the page shows for a seat or an agent instead of its spec
//! (`checkpoints/champion@argmax` is "Champion", `level:3` "Level 3", `classic:expert`
//! "Expert"). The spec stays in every answer for programs; the name is only for showing.

use crate::wire::HUMAN;
use games::GameId;

/// The name people see for the agent `spec` (or `Person` for a seat a person plays).
pub fn of(spec: &str) -> String {
    let spec = spec.trim();
    if spec == HUMAN {
        return "Person".into();
    }
    // A game's prefix (`classic:expert`) says nothing a seat at that game's table needs.
    let spec =
        GameId::all().find_map(|g| spec.strip_prefix(g.name()).and_then(|rest| rest.strip_prefix(':'))).unwrap_or(spec);
    // How a network chooses (`@argmax`, `@sample`, a level bundle's `@level`) is not who it is.
    let body = spec.split_once('@').map_or(spec, |(body, _)| body);
    if let Some(n) = body.strip_prefix("level:") {
        return format!("Level {n}");
    }
    if let Some((percent, inner)) = body.strip_prefix("mistakes:").and_then(|r| r.split_once('+')) {
        return format!("{} ({percent} % mistakes)", of(inner));
    }
    if let Some(rest) = body.strip_prefix("search") {
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        return match rest.split_once('+') {
            Some((worlds, guide)) if !worlds.is_empty() => format!("Search ({worlds} worlds, guided by {})", of(guide)),
            Some((_, guide)) => format!("Search (guided by {})", of(guide)),
            None if rest.is_empty() => "Search".into(),
            None => format!("Search ({rest} worlds)"),
        };
    }
    let name = body.trim_end_matches('/').rsplit('/').next().unwrap_or(body);
    capitalised(&name.replace(['-', '_'], " "))
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::of;

    #[test]
    fn seats_are_named_for_people_not_by_their_specs() {
        for (spec, name) in [
            ("human", "Person"),
            ("expert", "Expert"),
            ("classic:expert", "Expert"),
            ("level:3", "Level 3"),
            ("checkpoints/champion@argmax", "Champion"),
            ("checkpoints/classic-champion@argmax", "Classic champion"),
            ("/srv/sabacc/checkpoints/mixed-tables/", "Mixed tables"),
            ("exports/level-3@level", "Level 3"),
            ("search", "Search"),
            ("search:64", "Search (64 worlds)"),
            ("search:32+checkpoints/champion", "Search (32 worlds, guided by Champion)"),
            ("mistakes:20+expert", "Expert (20 % mistakes)"),
            ("classic:mistakes:10+level:2", "Level 2 (10 % mistakes)"),
        ] {
            assert_eq!(of(spec), name, "{spec}");
        }
    }
}
