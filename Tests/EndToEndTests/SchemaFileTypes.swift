import GuidedGeneration

// Swift types for the JSON Schema files in `schemas/`, declared as an app would declare them.

@Generable struct BedtimeStory {
    var title: String
    var protagonist: Protagonist
    var setting: String
    @Guide(.count(3...8)) var paragraphs: [String]
    var moral: String?
}

@Generable struct Protagonist {
    var name: String
    var species: String
}

@Generable struct CatProfile {
    var name: String
    @Guide(.range(0...20)) var age: Int
    var profile: String
}

@Generable struct Comment {
    var author: String
    var text: String
    @Guide(.minimum(0)) var likes: Int
    @Guide(.maximumCount(5)) var replies: [Comment]
}

@Generable struct ContactsArguments {
    var searchTerm: String
    @Guide(.range(1...10)) var count: Int
    var includePhoneNumbers: Bool?
}

@Generable struct CorrectedSentence {
    var corrected: String
    var isCorrect: Bool
}

@Generable struct Itinerary {
    var title: String
    @Guide(.anyOf(["Sahara Desert", "Serengeti", "Grand Canyon", "Kyoto", "Machu Picchu", "Banff National Park", "Great Barrier Reef"]))
    var destinationName: String
    var description: String
    var rationale: String?
    @Guide(.count(3)) var days: [DayPlan]
}

@Generable struct DayPlan {
    var title: String
    var subtitle: String
    var destination: String
    @Guide(.count(3)) var activities: [Activity]
}

@Generable struct Activity {
    var type: Kind
    var title: String
    var description: String
}

@Generable enum Kind {
    case sightseeing, foodAndDining, shopping, hotelAndLodging
}

@Generable struct Recipe {
    var title: String
    @Guide(.range(1...12)) var servings: Int
    @Guide(.minimumCount(1)) var ingredients: [Ingredient]
    @Guide(.minimumCount(1)) var steps: [String]
}

@Generable struct Ingredient {
    var name: String
    var quantity: String
}

@Generable struct TripIdeas {
    @Guide(.count(3...5)) var ideas: [TripIdea]
}

@Generable struct TripIdea {
    var title: String
    var destination: String
    var bestSeason: Season
    var why: String
}

@Generable enum Season {
    case spring, summer, autumn, winter
}

@Generable struct WorkoutPlan {
    var name: String
    var level: Level
    @Guide(.count(1...7)) var sessions: [WorkoutSession]
}

@Generable enum Level {
    case beginner, intermediate, advanced
}

@Generable struct WorkoutSession {
    var day: Weekday
    var focus: String
    @Guide(.count(1...8)) var exercises: [Exercise]
}

@Generable enum Weekday {
    case Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday
}

@Generable struct Exercise {
    var name: String
    @Guide(.range(1...10)) var sets: Int
    @Guide(.range(1...50)) var reps: Int
    @Guide(.range(0...300)) var restSeconds: Int?
}
