//! Share links: a session file deflated into a URL fragment and read back with the same checks as
//! an imported file. Encode then decode is the identity; a damaged, oversized or crafted link is
//! refused with a reason, never a panic or a huge allocation.

use miniz_oxide::deflate::compress_to_vec;
use proptest::prelude::*;
use roundtable_core::export;
use roundtable_core::share_link::{self, ShareLinkError, MAX_LINK_CHARS};

const TEAM_FILE: &str = include_str!("../../static/demo/demo-session.roundtable.json");
const MEETING_FILE: &str = include_str!("files/v2-meeting.roundtable.json");

fn link_of(file: &str) -> String {
    share_link::encode(&compress_to_vec(file.as_bytes(), 9))
}

#[test]
fn a_linked_session_of_each_kind_opens_as_the_same_session() {
    for file in [TEAM_FILE, MEETING_FILE] {
        let link = link_of(file);
        assert!(share_link::is_link(&link));
        assert!(link.len() <= MAX_LINK_CHARS, "{} characters", link.len());
        let bytes = share_link::decode(&format!("#{link}")).unwrap();
        assert_eq!(bytes, file.as_bytes());
        let session = export::from_file(export::text_of_file(&bytes).unwrap()).unwrap();
        let direct = export::from_file(file).unwrap();
        assert_eq!(session.title(), direct.title());
        assert_eq!(
            session.events_json(0).unwrap(),
            direct.events_json(0).unwrap()
        );
    }
}

#[test]
fn the_shipped_demo_session_fits_in_a_link() {
    let chars = link_of(TEAM_FILE).len();
    assert!(chars < MAX_LINK_CHARS / 2 + MAX_LINK_CHARS / 4, "{chars}");
}

#[test]
fn a_changed_character_never_opens_a_different_session() {
    let link = link_of(TEAM_FILE);
    let original = export::from_file(TEAM_FILE).unwrap();
    // Change characters spread over the link: each is refused by the link or by the file's own
    // checks (checksum, replay), or — where deflate ignores the bits — reads the same session.
    for at in (share_link::PREFIX.len()..link.len()).step_by(997) {
        let mut tampered = link.clone().into_bytes();
        tampered[at] = if tampered[at] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(tampered).unwrap();
        let Ok(bytes) = share_link::decode(&tampered) else {
            continue;
        };
        let Ok(text) = export::text_of_file(&bytes) else {
            continue;
        };
        if let Ok(session) = export::from_file(text) {
            assert_eq!(
                session.events_json(0).unwrap(),
                original.events_json(0).unwrap(),
                "character {at} changed the session and still passed every check"
            );
        }
    }
}

#[test]
fn bad_links_are_refused_with_their_reason() {
    assert_eq!(share_link::decode("#/s/abc"), Err(ShareLinkError::NotALink));
    assert_eq!(
        share_link::decode("#s=ab+c"),
        Err(ShareLinkError::BadCharacter { at: 2, found: '+' })
    );
    assert!(matches!(
        share_link::decode("#s=A"),
        Err(ShareLinkError::Damaged(_))
    ));
    let cut = link_of(TEAM_FILE);
    assert!(matches!(
        share_link::decode(&cut[..cut.len() / 2]),
        Err(ShareLinkError::Damaged(_))
    ));
    let long = format!("s={}", "A".repeat(MAX_LINK_CHARS + 1));
    assert_eq!(
        share_link::decode(&long),
        Err(ShareLinkError::TooLong {
            chars: MAX_LINK_CHARS + 1,
            max: MAX_LINK_CHARS
        })
    );
    // 16 MB of zeros deflates to about 16 KB: a small link, refused before it is unpacked.
    let bomb = link_of(&"\0".repeat(16 * 1024 * 1024));
    assert!(bomb.len() <= MAX_LINK_CHARS, "{}", bomb.len());
    assert_eq!(share_link::decode(&bomb), Err(ShareLinkError::TooLarge));
    insta::assert_snapshot!([
        ShareLinkError::NotALink,
        ShareLinkError::BadCharacter { at: 2, found: '+' },
        ShareLinkError::Damaged("invalid deflate data".into()),
        ShareLinkError::TooLong {
            chars: 70_000,
            max: MAX_LINK_CHARS
        },
        ShareLinkError::TooLarge,
    ]
    .iter()
    .map(ToString::to_string)
    .collect::<Vec<_>>()
    .join("\n"));
}

proptest! {
    #[test]
    fn encode_then_decode_is_the_identity(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let link = share_link::encode(&compress_to_vec(&bytes, 6));
        prop_assert_eq!(share_link::decode(&link).unwrap(), bytes);
    }

    #[test]
    fn any_fragment_is_decoded_or_refused_without_panicking(text in ".{0,300}") {
        let _ = share_link::decode(&format!("s={text}"));
    }
}
