//! The 16 Shift Tokens (K1.5, K5) and sets of them.

use game::bitset::{BitIndex, Bits};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A Shift Token kind. The discriminant is the token's index in action and observation layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Token {
    /// K5.1: this action's Draw is free.
    FreeDraw = 0,
    /// K5.2: recover up to 2 chips.
    Refund = 1,
    /// K5.3: recover up to 3 chips.
    ExtraRefund = 2,
    /// K5.4: take 1 chip from each opponent's hand pot.
    Embezzlement = 3,
    /// K5.5: every opponent loses 1 chip.
    GeneralTariff = 4,
    /// K5.6: one opponent loses 2 chips.
    TargetTariff = 5,
    /// K5.7: every opponent in stand loses 2 chips.
    GeneralAudit = 6,
    /// K5.8: one opponent in stand loses 3 chips.
    TargetAudit = 7,
    /// K5.9: choose a die value whose pair becomes the best numbered Sabacc.
    PrimeSabacc = 8,
    /// K5.10: Sylops are worth 0.
    Markdown = 9,
    /// K5.11: numbered Sabaccs rank in reverse.
    CookTheBooks = 10,
    /// K5.12: Impostors are worth 6.
    MajorFraud = 11,
    /// K5.13: the next player must Stand.
    Embargo = 12,
    /// K5.14: shielded from opponents' Stock, Tax and Disrupt tokens.
    Immunity = 13,
    /// K5.15: an opponent's hand is replaced from the draw piles.
    Exhaustion = 14,
    /// K5.16: swap hands with an opponent.
    DirectTransaction = 15,
}

/// The four token groups; Immunity shields from every group but Fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TokenGroup {
    /// Free Draw, Refund, Extra Refund, Embezzlement.
    Stock,
    /// Tariffs and Audits.
    Tax,
    /// Prime Sabacc, Markdown, Cook the Books, Major Fraud.
    Fix,
    /// Embargo, Immunity, Exhaustion, Direct Transaction.
    Disrupt,
}

impl Token {
    /// Number of token kinds.
    pub const COUNT: usize = 16;

    /// Every kind in index order.
    pub const ALL: [Token; 16] = [
        Token::FreeDraw,
        Token::Refund,
        Token::ExtraRefund,
        Token::Embezzlement,
        Token::GeneralTariff,
        Token::TargetTariff,
        Token::GeneralAudit,
        Token::TargetAudit,
        Token::PrimeSabacc,
        Token::Markdown,
        Token::CookTheBooks,
        Token::MajorFraud,
        Token::Embargo,
        Token::Immunity,
        Token::Exhaustion,
        Token::DirectTransaction,
    ];

    /// The token's index (0..16).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The token with this index.
    #[inline]
    pub fn from_index(i: usize) -> Option<Token> {
        Token::ALL.get(i).copied()
    }

    /// The token's group.
    pub fn group(self) -> TokenGroup {
        match self.index() / 4 {
            0 => TokenGroup::Stock,
            1 => TokenGroup::Tax,
            2 => TokenGroup::Fix,
            _ => TokenGroup::Disrupt,
        }
    }

    /// Whether playing it is followed by a choice of target opponent.
    pub fn needs_target(self) -> bool {
        matches!(self, Token::TargetTariff | Token::TargetAudit | Token::Exhaustion | Token::DirectTransaction)
    }

    /// Kebab-case name used in action names, scenarios and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Token::FreeDraw => "free-draw",
            Token::Refund => "refund",
            Token::ExtraRefund => "extra-refund",
            Token::Embezzlement => "embezzlement",
            Token::GeneralTariff => "general-tariff",
            Token::TargetTariff => "target-tariff",
            Token::GeneralAudit => "general-audit",
            Token::TargetAudit => "target-audit",
            Token::PrimeSabacc => "prime-sabacc",
            Token::Markdown => "markdown",
            Token::CookTheBooks => "cook-the-books",
            Token::MajorFraud => "major-fraud",
            Token::Embargo => "embargo",
            Token::Immunity => "immunity",
            Token::Exhaustion => "exhaustion",
            Token::DirectTransaction => "direct-transaction",
        }
    }

    /// Parses a kebab-case name.
    pub fn parse(name: &str) -> Option<Token> {
        Token::ALL.into_iter().find(|t| t.name() == name.trim())
    }
}

/// Every kind's name in index order (what reports count Shift Token plays by).
pub const TOKEN_NAMES: [&str; Token::COUNT] = {
    let mut names = [""; Token::COUNT];
    let mut i = 0;
    while i < Token::COUNT {
        names[i] = Token::ALL[i].name();
        i += 1;
    }
    names
};

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl BitIndex for Token {
    type Word = u16;

    #[inline]
    fn bit(self) -> u32 {
        self as u32
    }

    #[inline]
    fn from_bit(bit: u32) -> Token {
        Token::ALL[bit as usize]
    }
}

/// A set of token kinds as a 16-bit mask (bit = token index). Serialised as a list of names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TokenSet(pub u16);

game::bit_set_methods!(TokenSet, Token);

impl TokenSet {
    /// No token.
    pub const EMPTY: TokenSet = TokenSet(0);
    /// All 16 kinds.
    pub const ALL: TokenSet = TokenSet(0xFFFF);
}

impl FromIterator<Token> for TokenSet {
    #[inline]
    fn from_iter<I: IntoIterator<Item = Token>>(iter: I) -> Self {
        TokenSet(iter.into_iter().collect::<Bits<Token>>().word())
    }
}

impl Serialize for TokenSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for TokenSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list = Vec::<Token>::deserialize(d)?;
        let mut set = TokenSet::EMPTY;
        for t in list {
            if set.contains(t) {
                return Err(serde::de::Error::custom(format!("token `{t}` is listed twice")));
            }
            set.insert(t);
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k1_5_sixteen_tokens_in_four_groups_of_four() {
        for g in [TokenGroup::Stock, TokenGroup::Tax, TokenGroup::Fix, TokenGroup::Disrupt] {
            assert_eq!(Token::ALL.iter().filter(|t| t.group() == g).count(), 4);
        }
        for t in Token::ALL {
            assert_eq!(Token::parse(t.name()), Some(t));
            assert_eq!(Token::from_index(t.index()), Some(t));
        }
        assert_eq!(Token::Immunity.group(), TokenGroup::Disrupt);
        assert_eq!(Token::MajorFraud.group(), TokenGroup::Fix);
    }

    #[test]
    fn token_set_serialises_as_names_and_rejects_duplicates() {
        let s: TokenSet = [Token::Embargo, Token::FreeDraw].into_iter().collect();
        let j = serde_json::to_string(&s).unwrap();
        assert_eq!(j, r#"["free-draw","embargo"]"#);
        assert_eq!(serde_json::from_str::<TokenSet>(&j).unwrap(), s);
        assert!(serde_json::from_str::<TokenSet>(r#"["embargo","embargo"]"#).is_err());
    }
}
