import Testing

@testable import GuidedGeneration

/// Dynamic instructions come to the instructions and tools their body gives at the moment they
/// are resolved: conditionals, loops, `ForEach` and nested dynamic instructions, in order.
@Suite struct DynamicInstructionsTests {
    struct Skill: Identifiable {
        var id: String { name }
        var name: String
        var isActive: Bool
    }

    struct Skills: DynamicInstructions {
        var skills: [Skill]

        var body: some DynamicInstructions {
            Instructions("Use a skill that fits.")
            DynamicInstructions.ForEach(Array(skills.enumerated()), id: \.element.name) { item in
                let skill = item.element
                if skill.isActive {
                    Instructions("Skill \(item.offset): \(skill.name) [active]")
                } else {
                    Instructions("Skill \(item.offset): \(skill.name) [inactive]")
                }
            }
            WeatherTool()
        }
    }

    struct Assistant: DynamicInstructions {
        var isTerse: Bool
        var skills: [Skill]

        var body: some DynamicInstructions {
            Instructions {
                "You are a helpful assistant."
                "You answer in English."
            }
            if isTerse {
                Instructions("Answer in one sentence.")
            }
            for skill in skills where skill.isActive {
                Instructions("Remember \(skill.name).")
            }
            Skills(skills: skills)
        }
    }

    @Test func theBodyComesToItsInstructionsAndToolsInOrder() {
        let skills = [Skill(name: "cooking", isActive: true), Skill(name: "chess", isActive: false)]
        let resolved = Assistant(isTerse: true, skills: skills).resolvedInstructions
        #expect(
            resolved.instructions.description == """
                You are a helpful assistant.
                You answer in English.
                Answer in one sentence.
                Remember cooking.
                Use a skill that fits.
                Skill 0: cooking [active]
                Skill 1: chess [inactive]
                """)
        #expect(resolved.tools.map(\.name) == ["getWeather"])
    }

    @Test func theBodyIsWorkedOutAgainFromTheStateOfTheMoment() {
        var assistant = Assistant(isTerse: false, skills: [])
        #expect(assistant.resolvedInstructions.instructions.description == "You are a helpful assistant.\nYou answer in English.\nUse a skill that fits.")
        assistant.isTerse = true
        assistant.skills = [Skill(name: "chess", isActive: true)]
        #expect(assistant.resolvedInstructions.instructions.description.contains("Answer in one sentence.\nRemember chess."))
    }

    @Test func identifiableElementsNeedNoIdentifier() {
        let instructions = DynamicInstructions.ForEach([Skill(name: "a", isActive: true), Skill(name: "b", isActive: true)]) { skill in
            Instructions(skill.name)
        }
        #expect(instructions.resolvedInstructions.instructions.description == "a\nb")
        #expect(EmptyDynamicInstructions().resolvedInstructions.tools.isEmpty)
        #expect(AnyDynamicInstructions(erasing: instructions).resolvedInstructions.instructions.description == "a\nb")
    }
}
