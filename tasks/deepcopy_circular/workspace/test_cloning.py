from assets import Material, default_palette, lighting
from cloning import clone, duplicate
from scene import Node, Scene


def build_scene():
    scene = Scene("lobby")
    header = scene.root.add(Node("header", "frame"))
    header.add(Node("logo", "image", {"src": "logo.png", "size": [120, 40]}))
    body = scene.root.add(Node("body", "frame"))
    body.add(Node("hero", "image", {"src": "hero.jpg", "size": [800, 400]}))
    body.add(Node("caption", "text", {"text": "Welcome", "style": {"weight": 600}}))
    scene.share_payload("lighting", lighting(0.8), "root/header", "root/body", "root/body/hero")
    material = Material("paper", default_palette(), {"gloss": 0.1})
    scene.share_payload("material", material, "root/header/logo", "root/body/caption")
    return scene


def test_copy_has_same_structure_and_new_title():
    scene = build_scene()
    copy = duplicate(scene)
    assert copy.title == "lobby (copy)"
    assert [n.path() for n in copy.nodes()] == [n.path() for n in scene.nodes()]
    assert copy.find("root/body/caption").payload["text"] == "Welcome"
    assert copy.revision == 0


def test_copy_nodes_are_new_objects_with_copied_parents():
    scene = build_scene()
    copy = clone(scene)
    for original, copied in zip(scene.nodes(), copy.nodes()):
        assert copied is not original
        if original.parent is not None:
            assert copied.parent is not original.parent
            assert copied.parent.name == original.parent.name


def test_shared_payload_stays_shared_inside_the_copy():
    copy = clone(build_scene())
    header = copy.find("root/header").payload["lighting"]
    assert copy.find("root/body").payload["lighting"] is header
    assert copy.find("root/body/hero").payload["lighting"] is header
    logo_material = copy.find("root/header/logo").payload["material"]
    assert copy.find("root/body/caption").payload["material"] is logo_material


def test_editing_copied_material_leaves_original():
    scene = build_scene()
    copy = clone(scene)
    copy.find("root/body/caption").payload["material"].palette.add("#ff0000")
    assert scene.find("root/body/caption").payload["material"].palette.colours == ["#fff", "#000", "#3366cc"]


def test_editing_copied_lighting_leaves_original():
    scene = build_scene()
    copy = duplicate(scene, "lobby v2")
    copy.find("root/body/hero").payload["lighting"]["shadows"]["softness"] = 0.9
    assert scene.find("root/body/hero").payload["lighting"]["shadows"]["softness"] == 0.5
    assert scene.find("root/header").payload["lighting"]["shadows"]["softness"] == 0.5


def test_self_referencing_payload_is_copied():
    scene = Scene("loop")
    node = scene.root.add(Node("n", "group", {"name": "n"}))
    node.payload["self"] = node.payload
    copy = clone(scene)
    copied = copy.find("root/n").payload
    assert copied["self"] is copied
    copied["name"] = "changed"
    assert node.payload["name"] == "n"


def test_settings_are_copied():
    scene = build_scene()
    copy = clone(scene)
    copy.settings["grid"]["size"] = 16
    assert scene.settings["grid"]["size"] == 8


def test_template_start_gives_independent_scenes():
    from templates import PLACEHOLDER_TEXT, TemplateLibrary

    library = TemplateLibrary()
    library.save("landing", build_scene())
    first = library.start("landing", "spring sale")
    second = library.start("landing", "summer sale")
    first.find("root/body/caption").payload["text"] = "Spring!"
    assert second.find("root/body/caption").payload["text"] == PLACEHOLDER_TEXT
    assert library.describe("landing")["uses"] == 2
    assert library.describe("landing")["kinds"] == {"group": 1, "frame": 2, "image": 2, "text": 1}


def test_template_lighting_is_independent_of_started_scenes():
    from templates import TemplateLibrary

    library = TemplateLibrary()
    library.save("landing", build_scene())
    scene = library.start("landing", "autumn")
    scene.find("root/body/hero").payload["lighting"]["intensity"] = 0.2
    again = library.start("landing", "winter")
    assert again.find("root/body/hero").payload["lighting"]["intensity"] == 0.8
