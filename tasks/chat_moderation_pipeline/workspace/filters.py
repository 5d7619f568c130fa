import re
import unicodedata

LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})
_WORD = re.compile(r"[a-z]+")
_URL = re.compile(r"https?://\S+|www\.\S+", re.I)


def normalize(text):
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.lower().translate(LEET)


def words(text):
    return _WORD.findall(normalize(text))


def squeeze(word):
    """'baaaad' -> 'bad'"""
    out = []
    for ch in word:
        if not out or out[-1] != ch:
            out.append(ch)
    return "".join(out)


def find_terms(text, terms):
    found = []
    for w in words(text):
        if w in terms or squeeze(w) in terms:
            found.append(squeeze(w) if squeeze(w) in terms else w)
    return sorted(set(found))


def links(text):
    return _URL.findall(text)


def shouting(text, min_letters=8, ratio=0.8):
    letters = [ch for ch in text if ch.isalpha()]
    if len(letters) < min_letters:
        return False
    return sum(1 for ch in letters if ch.isupper()) / len(letters) >= ratio


def redact(text, terms):
    out = []
    for token in text.split(" "):
        core = squeeze("".join(_WORD.findall(normalize(token))))
        out.append("*" * len(token) if core in terms else token)
    return " ".join(out)
