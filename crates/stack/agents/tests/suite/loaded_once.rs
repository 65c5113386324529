//! A checkpoint is loaded once however its path is spelled: a client that names one folder by
//! ever-longer paths must not fill memory with copies of one network.

use agents::Agents;
use games::kessel::Kessel;

#[test]
fn one_folder_is_one_network_in_memory() {
    let agents = Agents::new();
    let spellings = [
        "../../../checkpoints/mixed-tables",
        "../../../checkpoints/./mixed-tables",
        "../../../checkpoints/../checkpoints/mixed-tables@argmax",
        "../../stack/../../checkpoints/mixed-tables",
    ];
    for spec in spellings {
        agents.build::<Kessel>(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    }
    assert_eq!(format!("{agents:?}"), "Agents { checkpoints_loaded: 1 }");
    agents.build::<Kessel>("../../../checkpoints/quick-4p").unwrap();
    assert_eq!(format!("{agents:?}"), "Agents { checkpoints_loaded: 2 }");
}
